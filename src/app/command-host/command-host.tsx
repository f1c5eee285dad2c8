import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { CommandContext, CommandResult } from '../../../commands/define-command';
import { createAppRegistry } from '../../../commands';
import { CommandError } from '../../../commands/registry';
import type { Whoami } from '../../../server/contract/auth';
import type { CommandSource } from '../../../server/contract/command-history';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { ConfirmDialog } from '../../components/ui/modal';
import { getColorMode, setColorMode } from '../../lib/color-mode';
import { appDrafts } from '../../lib/draft-store';
import { browserStore } from '../../lib/pinned-widgets';
import { CommandRunnerContext, type CommandRunner } from '../../lib/run-command';
import { onOpenPanel, openPanel, type ShellPanel } from '../../lib/shell-events';
import { clearStoredUser, storeUser } from '../../lib/stored-user';
import { HistoryPanel } from '../../features/history/history-panel';
import { CommandLine } from './command-line';
import { useCommandHotkeys } from './use-command-hotkeys';
import { Notice, type NoticeState } from './notice';
import { Palette } from './palette';
import { ShortcutOverview } from './shortcut-overview';

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
  const registry = useMemo(() => createAppRegistry(), []);
  const [panel, setPanel] = useState<HostPanel | null>(null);
  const [cmdlineSeed, setCmdlineSeed] = useState('');
  const [confirmRequest, setConfirmRequest] = useState<ConfirmRequest | null>(null);
  const [notice, setNotice] = useState<NoticeState | null>(null);

  const contextFor = useCallback(
    (source: CommandSource): CommandContext => {
      const ctx: CommandContext = {
        api,
        user,
        navigate: (to) => void navigate({ to }),
        invalidate: (queryKey) => queryClient.invalidateQueries({ queryKey }),
        confirm: (request) => new Promise<boolean>((resolve) => setConfirmRequest({ ...request, resolve })),
        ui: { colorMode: getColorMode, setColorMode, open: (p) => openPanel(p) },
        session: {
          signedIn: (u) => {
            storeUser(u);
            queryClient.setQueryData(queryKeys.auth.whoami, { result: u });
          },
          signedOut: () => {
            clearStoredUser();
            queryClient.removeQueries();
          },
        },
        run: (id, input) => registry.run(id, input, { source, ctx }),
        // Read at call time: the palette keeps one context while the person moves around.
        location: () => ({ pathname: router.latestLocation.pathname, search: router.latestLocation.search as Record<string, unknown> }),
        drafts: appDrafts,
        storage: browserStore,
      };
      return ctx;
    },
    [user, navigate, router, queryClient, registry],
  );

  const runner = useMemo<CommandRunner>(
    () => ({
      run: (id, input, options) => {
        const source = options?.source ?? 'ui';
        return registry.run(id, input ?? {}, { source, ctx: contextFor(source) });
      },
      check: (id) => registry.check(id, contextFor('ui')),
    }),
    [registry, contextFor],
  );

  /** Front doors other than the command line report here: the result or the refusal, briefly. */
  const runAndReport = useCallback(
    async (id: string, input: unknown, source: CommandSource): Promise<CommandResult | null> => {
      try {
        const result = await runner.run(id, input, { source });
        if (result.message) setNotice({ text: result.message, tone: 'ok', at: Date.now() });
        return result;
      } catch (err) {
        if (!(err instanceof CommandError && err.outcome === 'cancelled')) {
          setNotice({ text: err instanceof Error ? err.message : String(err), tone: 'error', at: Date.now() });
        }
        return null;
      }
    },
    [runner],
  );

  useEffect(
    () =>
      onOpenPanel((p) => {
        if (p !== 'account') setPanel(p);
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

  useCommandHotkeys(registry, (id) => void runAndReport(id, {}, "hotkey"), confirmRequest === null);

  const close = useCallback(() => setPanel(null), []);
  const ctx = useMemo(() => contextFor('palette'), [contextFor]);

  return (
    <CommandRunnerContext.Provider value={runner}>
      {children}
      {panel === 'palette' && (
        <Palette
          registry={registry}
          ctx={ctx}
          onClose={close}
          onRun={(id, input) => {
            close();
            void runAndReport(id, input, 'palette');
          }}
        />
      )}
      {panel === 'cmdline' && <CommandLine registry={registry} contextFor={contextFor} user={user} seed={cmdlineSeed} onClose={() => { setCmdlineSeed(''); close(); }} />}
      {panel === 'history' && <HistoryPanel onClose={close} onError={(text) => setNotice({ text, tone: 'error', at: Date.now() })} />}
      {panel === 'shortcuts' && <ShortcutOverview commands={registry.list()} onClose={close} />}
      <ConfirmDialog
        isOpen={confirmRequest !== null}
        title={confirmRequest?.title ?? ''}
        message={confirmRequest?.message ?? ''}
        confirmLabel={confirmRequest?.confirmLabel}
        cancelLabel={confirmRequest?.cancelLabel}
        onAnswer={(ok) => {
          confirmRequest?.resolve(ok);
          setConfirmRequest(null);
        }}
      />
      <Notice notice={notice} onDone={() => setNotice(null)} />
    </CommandRunnerContext.Provider>
  );
}
