import { createContext, useContext } from 'react';
import type { CommandId, CommandInput } from '../../../commands';
import type { AnyCommand, CommandResult } from '../../../commands/define-command';
import type { CommandSource } from '../../../server/contract/command-history';

export interface RunUiOptions {
  source?: CommandSource;
}

/**
 * Screens run commands through this context instead of calling the API: the command host
 * (src/app/command-host) provides it, backed by the registry's gate, so every button click lands
 * in the history. Runs are typed by command id: the input is checked against that command's
 * schema. It is declared here, below the app, so the kit's command-bound pieces (CommandButton,
 * RefreshButton, ListPagination) run commands without importing the app that provides them.
 */
export interface CommandRunner {
  /**
   * Runs through the gate and reports a failure or refusal itself (a notice, as for the palette);
   * resolves null then, and also when the person declines a confirmation. What to do on success
   * is the caller's.
   */
  run: <K extends CommandId>(id: K, input: CommandInput<K>, options?: RunUiOptions) => Promise<CommandResult | null>;
  /**
   * For forms that show the failure beside their fields: rejects with the CommandError and
   * reports nothing (a declined confirmation rejects with outcome `cancelled`).
   */
  runOrThrow: <K extends CommandId>(id: K, input: CommandInput<K>, options?: RunUiOptions) => Promise<CommandResult>;
  /** true, or the reason a person cannot run the command now (role, state). */
  check: (id: CommandId) => true | string;
  /** The command's definition: its title and shortcut, for buttons bound to it. */
  get: (id: CommandId) => AnyCommand | undefined;
}

export const CommandRunnerContext = createContext<CommandRunner | null>(null);

export function useCommandRunner(): CommandRunner {
  const runner = useContext(CommandRunnerContext);
  if (!runner) throw new Error('useCommandRunner needs the CommandRunnerContext provider (src/app)');
  return runner;
}
