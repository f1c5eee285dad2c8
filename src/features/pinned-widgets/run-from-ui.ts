import { useCallback } from 'react';
import { CommandError } from '../../../commands/registry';
import type { CommandResult } from '../../../commands/define-command';
import type { CommandSource } from '../../../server/contract/command-history';
import { toast } from '../../components/ui/toast';
import { useCommandRunner } from '../../lib/run-command';

/**
 * Runs a widget command from a control on this screen (source 'ui', or 'hotkey' for the
 * widgets' arrow keys); a refusal or failure becomes a toast and resolves null. A declined
 * confirmation is quiet.
 */
export function useRunFromUi(): (id: string, input: unknown, source?: CommandSource) => Promise<CommandResult | null> {
  const runner = useCommandRunner();
  return useCallback(
    async (id, input, source = 'ui') => {
      try {
        return await runner.run(id, input, { source });
      } catch (err) {
        if (!(err instanceof CommandError && err.outcome === 'cancelled')) toast('error', err instanceof Error ? err.message : String(err));
        return null;
      }
    },
    [runner],
  );
}
