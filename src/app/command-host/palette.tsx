import { useVirtualizer } from '@tanstack/react-virtual';
import { Command } from 'cmdk';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { ArgSpec, CommandContext, AnyCommand, EntityKind } from '../../../commands/define-command';
import type { Registry } from '../../../commands/registry';
import { markedArg, markedNoun, type MarkedTargets } from '../../../commands/run-marked';
import { PaletteRow } from './palette-row';
import { offersPrintApi } from '../../../commands/print-api';
import { shortcutLabel, useShortcuts } from './hotkeys';
import { rank } from '../../lib/rank';
import { entityProviders, providerFor, searchEntityKinds } from './entities';
import { EntityIndex } from './entity-index';
import { aliasItems, argsToAsk, commandItems, entityItems, hostScores, optionItems, presetItems, presetSkip, recentItems, withRecency, type PaletteItem } from './palette-items';
import { contextEntities } from './context-entities';
import { LatestOnly } from './latest-only';
import type { AliasDef } from '../../../commands/aliases';
import type { Recents } from '../../lib/recents';
import type { Entity } from './entities';

/** Entities fetched stay in this index across openings: typing ranks locally at once. */
const sharedIndex = new EntityIndex();
const ROW = 44;
const MAX_RESULTS = 2000;
const RECENTS = 8;
const NO_ALIASES: readonly AliasDef[] = [];
/**
 * Typing pauses this long before the API is asked (what is indexed already ranks at once). None:
 * LatestOnly already folds the keys typed while a search runs into the next one, so a pause only
 * delays the first (it was 25 ms of the 100 ms budget, issue 13).
 */
export const SEARCH_DEBOUNCE_MS = 0;
/** Of each kind per search: a screenful to choose from; typing on narrows it and the index keeps what came. */
const SEARCH_LIMIT = 25;

interface Asking {
  def: AnyCommand;
  step: number;
  values: Record<string, unknown>;
  /** Arguments not asked: the one marked rows fill, the ones an alias's line gives. */
  skip: string[];
  /** Marked rows fill this argument. */
  marked?: string;
  /** Started from this alias. */
  alias?: string;
  /** "Copy as curl" (Alt+C): the answers make a curl line instead of a run. */
  copy?: boolean;
  /** What each chosen value is called (a hostname for a server's id), for the steps shown above the input. */
  labels: Record<string, string>;
  /** The opening screen's words for the values it gave. */
  note?: string;
}

/** What the open screen is about, loaded for an entity argument: its first choices. */
interface OnScreen {
  step: Asking;
  items: PaletteItem[] | null;
}

/** Choices loaded for an argument whose options depend on earlier answers. */
interface Loaded {
  step: Asking;
  options: readonly { value: string; label: string }[] | null;
  error?: string;
}

/** What the palette says under a free-text step: the argument's own label, and that Enter skips an optional one. */
export const typeHint = (arg: ArgSpec) => (arg.optional ? `${arg.label} (optional): type it and press Enter, or press Enter to skip` : `${arg.label}: type it and press Enter`);

/** Commands that may change something (view-only ones stay out of the history): they offer "Copy as curl". */
/** The palette's "Copy as curl" key (physical C: on a Mac, Option+C types "ç"). */
const COPY_AS_CURL_KEY = 'alt+c';

export const offersCurl = (def: AnyCommand) => offersPrintApi(def);

export interface PaletteProps {
  registry: Registry;
  ctx: CommandContext;
  onRun: (id: string, input: Record<string, unknown>) => void;
  /** "Copy as curl" on the chosen command, once its arguments are given. */
  onCopyApi?: (id: string, input: Record<string, unknown>) => void;
  onClose: () => void;
  /** Rows marked in the list below (src/components/ui/marks.ts): a command that takes them is not asked for its target. */
  marked?: MarkedTargets;
  /** This person's aliases, listed and completed like commands. */
  aliases?: readonly AliasDef[];
  /** What this person used lately: the empty palette lists it first, and ranking prefers it. */
  recents?: Recents;
  /** The bench passes its own index and turns API search off. */
  index?: EntityIndex;
  fetchEntities?: boolean;
  /** Open on this command, its given arguments filled in (a screen's button that needs a note). */
  startWith?: { command: string; values: Record<string, unknown>; note?: string };
}

export function Palette({ registry, ctx, onRun, onCopyApi, onClose, marked, aliases = NO_ALIASES, recents, index = sharedIndex, fetchEntities = true, startWith }: PaletteProps) {
  const [query, setQuery] = useState('');
  const [asking, setAsking] = useState<Asking | null>(null);
  const [revision, setRevision] = useState(index.revision);
  /** The text whose API matches were last merged (data-entities-for: the palette bench waits on it). */
  const [fetchedFor, setFetchedFor] = useState<{ text: string; kind: EntityKind | undefined } | null>(null);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const arg = asking ? argsToAsk(asking.def, asking.skip, asking.values)[asking.step] : undefined;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    if (!asking || !arg?.choices) return;
    let stale = false;
    setLoaded({ step: asking, options: null });
    arg
      .choices(asking.values, ctx)
      .then((options) => !stale && setLoaded({ step: asking, options }))
      .catch((err: unknown) => !stale && setLoaded({ step: asking, options: [], error: err instanceof Error ? err.message : String(err) }));
    return () => {
      stale = true;
    };
  }, [asking, arg, ctx]);
  const choices = arg?.choices && loaded?.step === asking ? loaded : null;

  // The alert of the open drawer, the server of the open detail: first among an entity argument's choices.
  const [onScreen, setOnScreen] = useState<OnScreen | null>(null);
  useEffect(() => {
    if (!asking || arg?.kind !== 'entity' || !fetchEntities) return;
    let stale = false;
    setOnScreen({ step: asking, items: null });
    void contextEntities(ctx, arg.entity).then((found) => {
      if (!stale) setOnScreen({ step: asking, items: entityItems(found).map((item) => ({ ...item, context: true })) });
    });
    return () => {
      stale = true;
    };
  }, [asking, arg, ctx, fetchEntities]);
  const here = onScreen?.step === asking ? onScreen.items : null;

  // Ask the API for entities matching the text; results join the local index. One search at a
  // time: keys typed while it runs are folded into the next, so the server never works through a
  // queue of texts the person has typed past. The kinds GET /api/search answers go in one request
  // (one query: PGlite serves one at a time, so a request per kind queued up behind each other).
  const wantedKind = arg?.kind === 'entity' ? arg.entity : undefined;
  const live = useRef({ ctx, index });
  live.current = { ctx, index };
  const searcher = useMemo(
    () =>
      new LatestOnly<{ text: string; kind: EntityKind | undefined }>(async ({ text, kind }) => {
        const { ctx: c, index: idx } = live.current;
        // The plain palette lists things to open; history entries only matter when an arg asks for one.
        const providers = (kind ? [providerFor(kind)].filter((p) => !!p) : entityProviders.filter((p) => p.showCommand)).filter((p) => p.visible(c.user?.role));
        const together = providers.flatMap((p) => (p.searchKind ? [p.searchKind] : []));
        const searches = [
          ...(together.length ? [searchEntityKinds(c.api, text, together, SEARCH_LIMIT)] : []),
          ...providers.filter((p) => !p.searchKind).map((p) => p.search(c.api, text, SEARCH_LIMIT)),
        ];
        await Promise.all(
          searches.map((s) =>
            s
              .then((rows) => {
                idx.add(rows);
                setRevision(idx.revision);
              })
              .catch(() => {
                // The palette still works on what it has; a failed search is not worth a dialog.
              }),
          ),
        );
        setFetchedFor({ text, kind });
      }),
    [],
  );
  useEffect(() => {
    if (!fetchEntities || !ctx.user) return;
    if (arg && arg.kind !== 'entity') return;
    const t = setTimeout(() => searcher.ask({ text: query, kind: wantedKind }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [query, wantedKind, arg, fetchEntities, ctx.user, searcher]);

  // Things used lately are in the index from the start, so they rank as you type.
  useEffect(() => {
    const kept = recents?.top(50).flatMap((r) => (r.entity ? [r.entity as Entity] : [])) ?? [];
    if (kept.length) {
      index.add(kept);
      setRevision(index.revision);
    }
  }, [recents, index]);
  const scores = useMemo(() => recents?.scores() ?? new Map<string, number>(), [recents]);
  const hosts = useMemo(() => (recents ? hostScores(recents.top(50), scores) : new Map<string, number>()), [recents, scores]);
  const commands = useMemo(() => withRecency([...commandItems(registry, ctx), ...presetItems(registry, ctx), ...aliasItems(aliases, registry, ctx)], scores), [registry, ctx, aliases, scores]);
  // Prepared once per index change, not per keystroke: 10,000 entities must rank in a frame.
  const entities = useMemo(() => withRecency(entityItems(index.all()), scores, hosts), [index, revision, scores, hosts]);
  const empty = query.trim() === '';
  const recent = useMemo(() => {
    if (!recents || !empty) return [];
    const byKey = new Map<string, PaletteItem>(commands.map((c) => [c.key, c]));
    return recentItems(recents.top(RECENTS), byKey);
  }, [recents, empty, commands]);
  const candidates = useMemo(() => {
    if (!arg) {
      const openable = entities.filter((p) => p.kind === 'entity' && providerFor(p.entity.kind)?.showCommand);
      if (!recent.length) return [...commands, ...openable];
      const shown = new Set(recent.map((r) => r.key));
      return [...recent, ...commands.filter((c) => !shown.has(c.key)), ...openable.filter((e) => !shown.has(e.key))];
    }
    if (arg.choices) return choices?.options ? optionItems({ ...arg, options: choices.options }) : [];
    if (arg.kind === 'enum' || arg.kind === 'boolean') return optionItems(arg);
    if (arg.kind === 'entity') {
      const of = entities.filter((p) => p.kind === 'entity' && p.entity.kind === arg.entity);
      if (!here?.length) return of;
      const shown = new Set(here.map((h) => h.key));
      return [...here, ...of.filter((p) => !shown.has(p.key))];
    }
    return [];
  }, [arg, commands, entities, recent, choices, here]);
  // The thing on screen is first while nothing is typed (Enter takes it); once typing, it ranks like
  // the rest, ahead only on equal matches: "web-1" still finds web-1 on web-10's detail.
  const ranked = useMemo(() => (empty && here?.length ? candidates.map((c) => (c.kind === 'entity' && c.context ? { ...c, boost: 500 } : c)) : candidates), [candidates, empty, here]);
  const results = useMemo(() => rank(ranked, query, MAX_RESULTS), [ranked, query]);

  useEffect(() => setActive(0), [query, asking]);
  // Give focus back to where the person was (a button, a table row) when the palette closes.
  useEffect(() => {
    const before = document.activeElement;
    return () => {
      if (before instanceof HTMLElement && before !== document.body) before.focus();
    };
  }, []);
  const virtualizer = useVirtualizer({ count: results.length, getScrollElement: () => listRef.current, estimateSize: () => ROW, overscan: 6 });

  function finish(values: Record<string, unknown>, def: AnyCommand, alias?: string, copy?: boolean) {
    setAsking(null);
    if (copy && onCopyApi) return onCopyApi(def.id, values);
    recents?.record(alias ? `alias:${alias}` : `cmd:${def.id}`);
    onRun(def.id, values);
  }

  /** Starts a command (or an alias's command with its line's values): asks for what is left. */
  function start(def: AnyCommand, preset: Record<string, unknown>, alias?: string, copy?: boolean, note?: string) {
    // A curl line is for one target: marked rows do not fill it.
    const markedName = !copy && marked?.items.length ? markedArg(def, marked.kind)?.name : undefined;
    const skip = [...Object.keys(preset), ...(markedName && preset[markedName] === undefined ? [markedName] : [])];
    setQuery('');
    if (argsToAsk(def, skip, preset).length) setAsking({ def, step: 0, values: preset, skip, marked: markedName, alias, copy, labels: {}, ...(note ? { note } : {}) });
    else finish(preset, def, alias, copy);
  }

  function startPreset(def: AnyCommand, preset: Record<string, unknown>) {
    setQuery('');
    const skip = presetSkip(def, preset);
    if (argsToAsk(def, skip, preset).length) setAsking({ def, step: 0, values: preset, skip, labels: {} });
    else finish(preset, def);
  }

  // Opened by a screen's button on one command: start asking for what its values leave out.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !startWith) return;
    started.current = true;
    const def = registry.get(startWith.command);
    if (def) start(def, startWith.values, undefined, undefined, startWith.note);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [startWith, registry]);

  /** Alt+C: "Copy as curl" on the highlighted command (or the one being asked for). */
  function copyAsCurl() {
    if (!onCopyApi) return;
    if (asking) return offersCurl(asking.def) && !asking.marked && setAsking({ ...asking, copy: true });
    const item = results[active];
    if (item?.kind === 'command' && item.allowed === true && offersCurl(item.def)) start(item.def, {}, undefined, true);
    else if (item?.kind === 'alias' && item.allowed === true && item.def && offersCurl(item.def)) start(item.def, item.preset, item.alias.name, true);
  }

  function advance(value: unknown, label?: string) {
    if (!asking || !arg) return;
    const given = !(value === undefined || value === '');
    const values = given ? { ...asking.values, [arg.name]: value } : asking.values;
    const labels = given && label ? { ...asking.labels, [arg.name]: label } : asking.labels;
    setQuery('');
    if (asking.step + 1 >= argsToAsk(asking.def, asking.skip, values).length) finish(values, asking.def, asking.alias, asking.copy);
    else setAsking({ ...asking, step: asking.step + 1, values, labels });
  }

  function choose(item: PaletteItem | undefined) {
    if (asking) {
      if (item?.kind === 'option') return advance(item.value, item.label);
      if (item?.kind === 'entity') {
        recents?.record(item.key, item.entity);
        return advance(item.entity.value, item.entity.title);
      }
      // Free text (and an entity typed by hand): the command resolves it.
      if (arg?.kind === 'number' && query.trim()) return advance(Number(query));
      return advance(query);
    }
    if (!item) return;
    if (item.kind === 'entity') {
      recents?.record(item.key, item.entity);
      const show = providerFor(item.entity.kind)?.showCommand;
      return show ? onRun(show.id, { [show.arg]: item.entity.value }) : undefined;
    }
    if (item.kind === 'alias' && item.allowed === true && item.def) return start(item.def, item.preset, item.alias.name);
    if (item.kind === 'preset') {
      recents?.record(item.key);
      // A screen's control: what it names is given; only required arguments still missing are asked.
      return startPreset(item.def, item.preset);
    }
    if (item.kind !== 'command' || item.allowed !== true) return;
    start(item.def, {});
  }

  // "Copy as curl" is the palette's own key (not a command): declared once, bound inside the
  // palette (its input has the focus), and shown in its footer from the same string.
  const copyKeysRef = useShortcuts([{ shortcut: COPY_AS_CURL_KEY, inFields: true, fire: () => copyAsCurl() }]);

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!results.length) return;
      const next = (active + (e.key === 'ArrowDown' ? 1 : -1) + results.length) % results.length;
      setActive(next);
      virtualizer.scrollToIndex(next);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(results[active]);
    } else if (e.key === 'Tab') {
      // The palette is modal: focus stays in its input.
      e.preventDefault();
    } else if (e.key === 'Backspace' && asking && query === '') {
      e.preventDefault();
      setAsking(asking.step === 0 ? null : { ...asking, step: asking.step - 1 });
    }
  }

  const searching = fetchEntities && !!ctx.user && (!arg || arg.kind === 'entity');
  const settled =
    (!searching || (fetchedFor?.text === query && fetchedFor.kind === wantedKind)) && (!arg?.choices || !!choices?.options) && (arg?.kind !== 'entity' || !fetchEntities || here !== null);
  const selected = results[active]?.key ?? '';
  const highlighted = results[active];
  const curlable = !!onCopyApi && (asking ? offersCurl(asking.def) && !asking.copy && !asking.marked : (highlighted?.kind === 'command' || highlighted?.kind === 'alias') && highlighted.allowed === true && !!highlighted.def && offersCurl(highlighted.def));
  const placeholder = arg ? (arg.placeholder ?? `${arg.label}${arg.optional ? ' (optional)' : ''}`) : 'Type a command, a user name…';
  return (
    <div ref={copyKeysRef} role="dialog" aria-modal="true" aria-label="Command palette" className="fixed inset-0 z-50 flex items-start justify-center bg-slate-900/40 p-4 pt-[12vh]" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <Command
        // cmdk names its input by this label (aria-labelledby wins over aria-label): name the step.
        label={asking && arg ? `${asking.def.title}: ${arg.label}` : 'Command palette'}
        shouldFilter={false}
        value={selected}
        onKeyDown={onKeyDown}
        className="w-full max-w-xl overflow-hidden rounded-lg border border-slate-200 bg-white text-slate-900 shadow-2xl dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        {asking && (
          <div className="flex items-center gap-2 border-b border-slate-200 px-4 pt-3 pb-2 text-xs text-slate-500 dark:border-slate-700 dark:text-slate-400">
            <span className="font-semibold text-slate-700 dark:text-slate-200">{asking.def.title}</span>
            {asking.alias && <span className="font-mono">({asking.alias})</span>}
            {asking.note && <span className="text-slate-700 dark:text-slate-200">{asking.note}</span>}
            {asking.copy && <span className="rounded bg-amber-100 px-1.5 text-amber-900 dark:bg-amber-900 dark:text-amber-100">Copy as curl</span>}
            {asking.marked && marked && <span className="rounded bg-blue-600 px-1.5 text-white">{markedNoun(marked.kind, marked.items.length)} marked</span>}
            {argsToAsk(asking.def, asking.skip, asking.values).map((a, i) => (
              <span key={a.name} className={i === asking.step ? 'rounded bg-blue-100 px-1.5 text-blue-800 dark:bg-blue-900 dark:text-blue-100' : ''}>
                {a.label}
                {i < asking.step && asking.values[a.name] !== undefined && `: ${a.kind === 'password' ? '••••' : (asking.labels[a.name] ?? String(asking.values[a.name]))}`}
              </span>
            ))}
          </div>
        )}
        {arg?.kind === 'password' ? (
          <input
            ref={inputRef}
            autoFocus
            type="password"
            aria-label={arg.label}
            placeholder={placeholder}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            className="w-full border-b border-slate-200 bg-transparent px-4 py-3 text-base outline-none dark:border-slate-700"
          />
        ) : (
          <Command.Input
            ref={inputRef}
            autoFocus
            aria-label={arg ? arg.label : 'Command or search'}
            placeholder={placeholder}
            value={query}
            onValueChange={setQuery}
            className="w-full border-b border-slate-200 bg-transparent px-4 py-3 text-base outline-none dark:border-slate-700"
          />
        )}
        <Command.List
          ref={listRef}
          className="max-h-[min(60vh,440px)] overflow-y-auto"
          data-testid="palette-results"
          data-count={results.length}
          data-entities-for={fetchedFor?.text}
          // Whether the rows are all there is to come for this text (the API's matches, the screen's choices, loaded options): what scripts wait on.
          data-settled={settled}
        >
          {results.length === 0 && (
            <div className="px-4 py-6 text-center text-sm text-slate-500 dark:text-slate-400">
              {arg?.choices && !choices?.options
                ? `Loading the choices for ${arg.label}…`
                : choices?.error
                  ? `${choices.error} ${typeHint(arg!)}`
                  : arg && !(arg.kind === 'enum' || arg.kind === 'boolean' || arg.kind === 'entity' || arg.choices)
                    ? typeHint(arg)
                    : arg
                      ? 'No match: Enter uses what you typed'
                      : 'No results'}
            </div>
          )}
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => {
              const item = results[row.index]!;
              return (
                <Command.Item
                  key={item.key}
                  value={item.key}
                  disabled={(item.kind === 'command' || item.kind === 'alias') && item.allowed !== true}
                  onSelect={() => choose(item)}
                  onMouseMove={() => row.index !== active && setActive(row.index)}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${row.start}px)` }}
                  className="flex cursor-pointer items-center gap-3 px-4 text-sm data-[disabled=true]:cursor-not-allowed data-[disabled=true]:opacity-50 data-[selected=true]:bg-blue-50 dark:data-[selected=true]:bg-slate-800"
                >
                  <PaletteRow item={item} marked={marked} />
                </Command.Item>
              );
            })}
          </div>
        </Command.List>
        <div className="flex justify-between border-t border-slate-200 px-4 py-1.5 text-xs text-slate-500 dark:border-slate-700 dark:text-slate-400">
          <span>
            ↑↓ move · Enter {asking?.copy ? 'copy as curl' : 'choose'} · Esc close{asking ? ' · Backspace back' : ''}
            {curlable && (
              <>
                {' · '}
                <kbd className="font-mono">{shortcutLabel(COPY_AS_CURL_KEY)}</kbd> copy as curl
              </>
            )}
          </span>
          <span>{results.length} result{results.length === 1 ? '' : 's'}</span>
        </div>
      </Command>
    </div>
  );
}
