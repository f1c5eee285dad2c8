import { createContext, useContext } from 'react';
import type { CommandResult } from '../../commands/define-command';
import type { CommandSource } from '../../server/contract/command-history';

/**
 * Screens run commands through this context instead of calling the API: the command host
 * (src/app) provides it, backed by registry.run, so every button click lands in the history.
 * `check` answers true or the reason a person cannot run the command (role, state).
 */
export interface CommandRunner {
  run: (id: string, input?: unknown, options?: { source?: CommandSource }) => Promise<CommandResult>;
  check: (id: string) => true | string;
}

export const CommandRunnerContext = createContext<CommandRunner | null>(null);

export function useCommandRunner(): CommandRunner {
  const runner = useContext(CommandRunnerContext);
  if (!runner) throw new Error('useCommandRunner needs the CommandRunnerContext provider (src/app)');
  return runner;
}
