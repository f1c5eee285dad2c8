import { useQuery, useQueryClient } from '@tanstack/react-query';
import { aliasesQueryOptions } from '../../api/aliases';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { CommandContext, CommandResult } from '../../../commands/define-command';
import { createAppRegistry } from '../../../commands';
import { CommandError } from '../../../commands/registry';
import { copyApiNotice } from './copy-api';
import type { Whoami } from '../../../server/contract/auth';
import type { CommandSource } from '../../../server/contract/command-history';
import { ConfirmDialog } from '../../components/ui/modal';
import { downloadUrl } from '../../lib/download';
import { appDrafts } from '../../lib/draft-store';
import { browserStore } from '../../lib/pinned-widgets';
import { localStore, tabStore } from '../../lib/web-storage';
import { createRecents } from '../../lib/recents';
import { CommandRunnerContext, type CommandRunner } from './run-command';
import { onOpenPanel, type HistoryFilters, type PaletteStart, type ShellPanel } from '../../lib/shell-events';
import { HistoryPanel } from '../../features/history/history-panel';
import { CommandLine } from './command-line';
import { useCommandHotkeys } from './use-command-hotkeys';
import { Notice, shortcutHint, type NoticeState } from './notice';
import { Palette } from './palette';
import { useViewHistory } from './use-view-history';
import { MarksBar } from './marks-bar';
import { dispatchWithMarks, type MarkedTargets } from '../../../commands/run-marked';
import { marks, useMarks } from '../../components/ui/marks';
import { ShortcutOverview } from './shortcut-overview';
import { sharedContextParts } from './context-parts';

type ConfirmRequest = Parameters<CommandContext['confirm']>[0] & { resolve: (ok: boolean) => void };
/** Panels this host draws; the account drawer belongs to the layout and listens on its own. */
type HostPanel = Exclude<ShellPanel, 'account'>;

/**
 * The command core's home in the app: builds the CommandContext once per signed-in user, gives
 * screens `CommandRunnerContext`, and draws the three front doors (palette, command line,
 * hotkeys) plus the history panel, the shortcut overview and the confirm dialog.
 */
export function CommandHost({ children, user }: { children: ReactNode; user: Whoami | null }) {
  const navigate = useNavigate();
  const router = useRouter();
  const queryClient = useQueryClient();
  const registry = useMemo(() => createAppRegistry({ undoStorage: tabStore }), []);
  const [panel, setPanel] = useState<HostPanel | null>(null);
  const [historyFilters, setHistoryFilters] = useState<HistoryFilters>({});
  const [paletteStart, setPaletteStart] = useState<PaletteStart | undefined>(undefined);
  const [cmdlineSeed, setCmdlineSeed] = useState('');
  const [confirmRequest, setConfirmRequest] = useState<ConfirmRequest | null>(null);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const views = useViewHistory(router);

  const contextFor = useCallback(
    (source: CommandSource): CommandContext => {
      const ctx: CommandContext = {
        ...sharedContextParts(navigate, queryClient),
        user,
        confirm: (request) => new Promise<boolean>((resolve) => setConfirmRequest({ ...request, resolve })),
        run: (id, input) => registry.dispatch(id, input, { source, ctx }),
        // Read at call time: the palette keeps one context while the person moves around.
        location: () => ({ pathname: router.latestLocation.pathname, search: router.latestLocation.search as Record<string, unknown> }),
        drafts: appDrafts,
        storage: browserStore,
        download: downloadUrl,
        copy: (text) => navigator.clipboard.writeText(text),
        lookup: (id) => registry.get(id),
        marks,
        views,
        undo: {
          peek: () => {
            const entry = registry.peekUndo(user?._id);
            return entry ? { title: entry.title } : undefined;
          },
          run: () => registry.undo(ctx, source),
        },
      };
      return ctx;
    },
    [user, navigate, router, queryClient, registry, views],
  );

  const report = useCallback((err: unknown) => {
    if (err instanceof CommandError && err.outcome === 'cancelled') return;
    setNotice({ text: err instanceof Error ? err.message : String(err), tone: 'error', at: Date.now() });
  }, []);

  /** A run's notice, with Undo when the gate put the run on the undo stack. */
  const announceRun = useCallback(
    (result: CommandResult, extra: Partial<NoticeState> = {}) => {
      const key = result.undo?.key;
      const onUndo =
        key === undefined
          ? undefined
          : () =>
              void registry.undo(contextFor('ui'), 'ui', key).then((r) => setNotice({ text: r.message ?? 'Undone.', tone: 'ok', at: Date.now() }), report);
      const text = result.message ?? extra.text;
      if (text) setNotice({ tone: 'ok', at: Date.now(), ...extra, text, onUndo });
    },
    [registry, contextFor, report],
  );

  /**
   * Every front door but the command line (which prints) ends here: run through the gate and
   * show a failure, so no screen can swallow one. Resolves null after a failure or a decline.
   */
  const dispatchAndReport = useCallback(
    async (id: string, input: unknown, source: CommandSource, announce: boolean, targets?: MarkedTargets): Promise<CommandResult | null> => {
      try {
        const result = await dispatchWithMarks(registry, id, (input ?? {}) as Record<string, unknown>, targets, { source, ctx: contextFor(source) });
        // Rows the command went through are unmarked; the ones that failed stay, to try again.
        if (result.marked) marks.unmark(result.marked.done);
        // After a palette run, the notice teaches the command's shortcut or screen keys (issue 13).
        const shortcut = source === 'palette' ? shortcutHint(registry.get(id)) : undefined;
        // Screens show their own outcome; an undoable run still gets its notice with Undo.
        if (announce || result.undo || shortcut) announceRun(result, shortcut ? { text: registry.get(id)!.title, shortcut } : {});
        return result;
      } catch (err) {
        report(err);
        return null;
      }
    },
    [registry, contextFor, report, announceRun],
  );

  /** The palette's "Copy as curl": the command's calls, on the clipboard and in the notice. */
  const copyApi = useCallback(
    async (id: string, input: Record<string, unknown>) => {
      try {
        setNotice({ ...(await copyApiNotice(registry, id, input, contextFor('palette'))), at: Date.now() });
      } catch (err) {
        report(err);
      }
    },
    [registry, contextFor, report],
  );

  const runner = useMemo<CommandRunner>(
    () => ({
      run: (id, input, options) => dispatchAndReport(id, input, options?.source ?? 'ui', false),
      runOrThrow: async (id, input, options) => {
        const source = options?.source ?? 'ui';
        const result = await registry.run(id, input, { source, ctx: contextFor(source) });
        if (result.undo) announceRun(result);
        return result;
      },
      check: (id) => registry.check(id, contextFor('ui')),
      get: (id) => registry.get(id),
    }),
    [registry, contextFor, dispatchAndReport, announceRun],
  );

  useEffect(
    () =>
      onOpenPanel((p, options) => {
        if (p !== 'account') setPanel(p);
        // history.show says the filters every time (none: all runs); the open panel follows them.
        if (p === 'history') setHistoryFilters(options.history ?? {});
        if (p === 'palette') setPaletteStart(options.palette);
      }),
    [],
  );

  // Links made by commandLink(): prefill the command line, never run on their own.
  const seeded = useRef(false);
  useEffect(() => {
    if (seeded.current || typeof window === 'undefined') return;
    seeded.current = true;
    const line = new URLSearchParams(window.location.search).get('cmd');
    if (line && user) {
      setCmdlineSeed(line);
      setPanel('cmdline');
    }
  }, [user]);

  useCommandHotkeys(registry, (id) => void dispatchAndReport(id, {}, 'hotkey', true), confirmRequest === null);

  const close = useCallback(() => {
    setPanel(null);
    setPaletteStart(undefined);
  }, []);
  const aliasesQuery = useQuery({ ...aliasesQueryOptions(), enabled: !!user });
  const aliases = useMemo(() => aliasesQuery.data?.result ?? [], [aliasesQuery.data]);
  const recents = useMemo(() => (user ? createRecents(localStore, user._id) : undefined), [user]);
  const marked = useMarks();
  const markedTargets = useMemo(() => (marked.kind && marked.items.length ? { kind: marked.kind, items: marked.items } : undefined), [marked]);
  const ctx = useMemo(() => contextFor('palette'), [contextFor]);

  return (
    <CommandRunnerContext.Provider value={runner}>
      {children}
      {panel === 'palette' && (
        <Palette
          registry={registry}
          ctx={ctx}
          onClose={close}
          marked={markedTargets}
          aliases={aliases}
          recents={recents}
          startWith={paletteStart}
          onRun={(id, input) => {
            close();
            void dispatchAndReport(id, input, 'palette', true, markedTargets);
          }}
          onCopyApi={(id, input) => {
            close();
            void copyApi(id, input);
          }}
        />
      )}
      {panel === 'cmdline' && <CommandLine registry={registry} contextFor={contextFor} user={user} seed={cmdlineSeed} aliases={aliases} recents={recents} onClose={() => { setCmdlineSeed(''); close(); }} />}
      {panel === 'history' && <HistoryPanel filters={historyFilters} onClose={close} />}
      {panel === 'shortcuts' && <ShortcutOverview commands={registry.list()} onClose={close} />}
      <ConfirmDialog
        isOpen={confirmRequest !== null}
        title={confirmRequest?.title ?? ''}
        message={confirmRequest?.message ?? ''}
        target={confirmRequest?.target}
        confirmLabel={confirmRequest?.confirmLabel}
        cancelLabel={confirmRequest?.cancelLabel}
        onAnswer={(ok) => {
          confirmRequest?.resolve(ok);
          setConfirmRequest(null);
        }}
      />
      <MarksBar />
      <Notice notice={notice} onDone={() => setNotice(null)} undoKeys={registry.get('history.undo')?.shortcut} />
    </CommandRunnerContext.Provider>
  );
}
