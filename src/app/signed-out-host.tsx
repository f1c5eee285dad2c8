import { useQueryClient } from '@tanstack/react-query';
import { Outlet, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { CommandId, CommandInput, createAppRegistry } from '../../commands';
import type { CommandContext, CommandResult } from '../../commands/define-command';
import { toast } from '../components/ui/toast';
import { CommandRunnerContext, type CommandRunner, type RunUiOptions } from './command-host/run-command';
import { sharedContextParts } from './command-host/context-parts';

type AppRegistry = ReturnType<typeof createAppRegistry>;

/**
 * The registry, fetched on the first run: the commands (and the full zod they use) stay out of
 * the sign-in page's first download (docs/benchmarks.md "npm run bench -- bundle-size"), and the app needs
 * the same code right after signing in anyway.
 */
let loading: Promise<AppRegistry> | undefined;
const loadRegistry = () =>
  (loading ??= import('../../commands').then(
    (m) => m.createAppRegistry(),
    (err: unknown) => {
      // A download that failed (the server was unreachable) is tried again on the next run.
      loading = undefined;
      throw err;
    },
  ));

/**
 * The command gate for the signed-out pages (/login, /logout, /session-expired): the same
 * registry and `run` as the signed-in command host, with no user, so `session.signin` goes
 * through parse → permission → run like any command and the server's record of the sign-in names
 * it. No palette, command line or hotkeys here: there is nothing else a signed-out person can run.
 */
export function SignedOutHost() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const runner = useMemo<CommandRunner>(() => {
    const contextFor = (registry: AppRegistry, source: NonNullable<RunUiOptions['source']>): CommandContext => {
      const ctx: CommandContext = {
        ...sharedContextParts(navigate, queryClient),
        user: null,
        // Nothing destructive runs signed out; were one to ask, the answer is no.
        confirm: async () => false,
        run: (id, input) => registry.dispatch(id, input, { source, ctx }),
      };
      return ctx;
    };
    const runOrThrow = async <K extends CommandId>(id: K, input: CommandInput<K>, options?: RunUiOptions): Promise<CommandResult> => {
      const registry = await loadRegistry();
      const source = options?.source ?? 'ui';
      return registry.run(id, input, { source, ctx: contextFor(registry, source) });
    };
    return {
      runOrThrow,
      run: (id, input, options) =>
        runOrThrow(id, input, options).catch((err: unknown) => {
          if ((err as { outcome?: string }).outcome !== 'cancelled') toast('error', err instanceof Error ? err.message : String(err));
          return null;
        }),
      // Only `run` is for these pages; buttons bound to commands belong to the signed-in screens.
      check: () => true,
      get: () => undefined,
    };
  }, [navigate, queryClient]);
  return (
    <CommandRunnerContext.Provider value={runner}>
      <Outlet />
    </CommandRunnerContext.Provider>
  );
}
