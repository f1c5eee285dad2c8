import { useEffect } from 'react';
import type { CommandId } from '../../commands';
import { toast } from '../components/ui/toast';
import { useCommandRunner } from '../components/ui/command-runner';

/**
 * A create or edit route whose command this role may not run (SPEC §6, our matrix) sends the
 * person back with the reason instead of showing a form that cannot be saved.
 */
export function useLeaveUnlessAllowed(commandId: CommandId, leave: () => void): boolean {
  const runner = useCommandRunner();
  const allowed = runner.check(commandId);
  useEffect(() => {
    if (allowed === true) return;
    toast('error', allowed);
    leave();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [allowed]);
  return allowed === true;
}
