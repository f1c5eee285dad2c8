import { useVirtualizer } from '@tanstack/react-virtual';
import { Command } from 'cmdk';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { CommandContext, CommandDefinition } from '../../../commands/define-command';
import type { Registry } from '../../../commands/registry';
import { shortcutLabel } from '../../lib/hotkeys';
import { rank } from '../../lib/rank';
import { entityProviders, providerFor } from './entities';
import { EntityIndex } from './entity-index';
import { argsToAsk, commandItems, entityItems, optionItems, type PaletteItem } from './palette-items';

/** Entities fetched stay in this index across openings: typing ranks locally at once. */
const sharedIndex = new EntityIndex();
const ROW = 44;
const MAX_RESULTS = 2000;

interface Asking {
  def: CommandDefinition<any>;
  step: number;
  values: Record<string, unknown>;
}

export interface PaletteProps {
  registry: Registry;
  ctx: CommandContext;
  onRun: (id: string, input: Record<string, unknown>) => void;
  onClose: () => void;
  /** The bench passes its own index and turns API search off. */
  index?: EntityIndex;
  fetchEntities?: boolean;
}

export function Palette({ registry, ctx, onRun, onClose, index = sharedIndex, fetchEntities = true }: PaletteProps) {
  const [query, setQuery] = useState('');
  const [asking, setAsking] = useState<Asking | null>(null);
  const [revision, setRevision] = useState(index.revision);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const arg = asking ? argsToAsk(asking.def)[asking.step] : undefined;

  // Ask the API for entities matching the text (debounced); results join the local index.
  const wantedKind = arg?.kind === 'entity' ? arg.entity : undefined;
  useEffect(() => {
    if (!fetchEntities || !ctx.user) return;
    if (arg && arg.kind !== 'entity') return;
    // The plain palette lists things to open; history entries only matter when an arg asks for one.
    const providers = wantedKind ? [providerFor(wantedKind)].filter((p) => !!p) : entityProviders.filter((p) => p.showCommand);
    let stale = false;
    const t = setTimeout(() => {
      for (const p of providers) {
        if (!p.visible(ctx.user?.role)) continue;
        p.search(ctx.api, query, 50)
          .then((rows) => {
            if (stale) return;
            index.add(rows);
            setRevision(index.revision);
          })
          .catch(() => {
            // The palette still works on what it has; a failed search is not worth a dialog.
          });
      }
    }, 150);
    return () => {
      stale = true;
      clearTimeout(t);
    };
  }, [query, wantedKind, arg, fetchEntities, ctx.api, ctx.user, index]);

  const commands = useMemo(() => commandItems(registry, ctx), [registry, ctx]);
  // Prepared once per index change, not per keystroke: 10,000 entities must rank in a frame.
  const entities = useMemo(() => entityItems(index.all()), [index, revision]);
  const candidates = useMemo(() => {
    if (!arg) return [...commands, ...entities.filter((p) => p.kind === 'entity' && providerFor(p.entity.kind)?.showCommand)];
    if (arg.kind === 'enum' || arg.kind === 'boolean') return optionItems(arg);
    if (arg.kind === 'entity') return entities.filter((p) => p.kind === 'entity' && p.entity.kind === arg.entity);
    return [];
  }, [arg, commands, entities]);
  const results = useMemo(() => rank(candidates, query, MAX_RESULTS), [candidates, query]);

  useEffect(() => setActive(0), [query, asking]);
  // Give focus back to where the person was (a button, a table row) when the palette closes.
  useEffect(() => {
    const before = document.activeElement;
    return () => {
      if (before instanceof HTMLElement && before !== document.body) before.focus();
    };
  }, []);
  const virtualizer = useVirtualizer({ count: results.length, getScrollElement: () => listRef.current, estimateSize: () => ROW, overscan: 6 });

  function finish(values: Record<string, unknown>, def: CommandDefinition<any>) {
    setAsking(null);
    onRun(def.id, values);
  }

  function advance(value: unknown) {
    if (!asking || !arg) return;
    const values = value === undefined || value === '' ? asking.values : { ...asking.values, [arg.name]: value };
    setQuery('');
    if (asking.step + 1 >= argsToAsk(asking.def).length) finish(values, asking.def);
    else setAsking({ ...asking, step: asking.step + 1, values });
  }

  function choose(item: PaletteItem | undefined) {
    if (asking) {
      if (item?.kind === 'option') return advance(item.value);
      if (item?.kind === 'entity') return advance(item.entity.value);
      // Free text (and an entity typed by hand): the command resolves it.
      if (arg?.kind === 'number' && query.trim()) return advance(Number(query));
      return advance(query);
    }
    if (!item) return;
    if (item.kind === 'entity') {
      const show = providerFor(item.entity.kind)?.showCommand;
      return show ? onRun(show.id, { [show.arg]: item.entity.value }) : undefined;
    }
    if (item.kind !== 'command' || item.allowed !== true) return;
    setQuery('');
    if (argsToAsk(item.def).length) setAsking({ def: item.def, step: 0, values: {} });
    else finish({}, item.def);
  }

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

  const selected = results[active]?.key ?? '';
  const placeholder = arg ? (arg.placeholder ?? `${arg.label}${arg.optional ? ' (optional)' : ''}`) : 'Type a command, a user name…';
  return (
    <div role="dialog" aria-modal="true" aria-label="Command palette" className="fixed inset-0 z-50 flex items-start justify-center bg-slate-900/40 p-4 pt-[12vh]" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
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
            {argsToAsk(asking.def).map((a, i) => (
              <span key={a.name} className={i === asking.step ? 'rounded bg-blue-100 px-1.5 text-blue-800 dark:bg-blue-900 dark:text-blue-100' : ''}>
                {a.label}
                {i < asking.step && asking.values[a.name] !== undefined && `: ${a.kind === 'password' ? '••••' : String(asking.values[a.name])}`}
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
        <Command.List ref={listRef} className="max-h-[min(60vh,440px)] overflow-y-auto" data-testid="palette-results" data-count={results.length}>
          {results.length === 0 && (
            <div className="px-4 py-6 text-center text-sm text-slate-500 dark:text-slate-400">
              {arg && !(arg.kind === 'enum' || arg.kind === 'boolean' || arg.kind === 'entity') ? `Type the ${arg.label.toLowerCase()} and press Enter` : arg ? 'No match: Enter uses what you typed' : 'No results'}
            </div>
          )}
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => {
              const item = results[row.index]!;
              return (
                <Command.Item
                  key={item.key}
                  value={item.key}
                  disabled={item.kind === 'command' && item.allowed !== true}
                  onSelect={() => choose(item)}
                  onMouseMove={() => row.index !== active && setActive(row.index)}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${row.start}px)` }}
                  className="flex cursor-pointer items-center gap-3 px-4 text-sm data-[disabled=true]:cursor-not-allowed data-[disabled=true]:opacity-50 data-[selected=true]:bg-blue-50 dark:data-[selected=true]:bg-slate-800"
                >
                  <PaletteRow item={item} />
                </Command.Item>
              );
            })}
          </div>
        </Command.List>
        <div className="flex justify-between border-t border-slate-200 px-4 py-1.5 text-xs text-slate-500 dark:border-slate-700 dark:text-slate-400">
          <span>↑↓ move · Enter choose · Esc close{asking ? ' · Backspace back' : ''}</span>
          <span>{results.length} result{results.length === 1 ? '' : 's'}</span>
        </div>
      </Command>
    </div>
  );
}

function PaletteRow({ item }: { item: PaletteItem }) {
  if (item.kind === 'command') {
    return (
      <>
        <span className="w-20 shrink-0 text-xs text-slate-400">{item.def.category}</span>
        <span className="min-w-0 flex-1 truncate">
          {item.label}
          {item.allowed !== true && <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">— {item.allowed}</span>}
        </span>
        {item.def.shortcut && <kbd className="rounded border border-slate-300 px-1.5 font-mono text-xs text-slate-500 dark:border-slate-600 dark:text-slate-400">{shortcutLabel(item.def.shortcut)}</kbd>}
      </>
    );
  }
  if (item.kind === 'entity') {
    return (
      <>
        <span className="w-20 shrink-0 text-xs text-slate-400 capitalize">{item.entity.kind}</span>
        <span className="min-w-0 flex-1 truncate">{item.label}</span>
        {item.entity.subtitle && <span className="truncate text-xs text-slate-500 dark:text-slate-400">{item.entity.subtitle}</span>}
      </>
    );
  }
  return <span className="flex-1">{item.label}</span>;
}
