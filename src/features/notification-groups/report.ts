import { CommandError } from '../../../commands/registry';
import { toast } from '../../components/ui/toast';

/** Screen runs are not reported by the command host: say what failed, but not a declined confirmation. */
export function reportUnlessCancelled(err: unknown): void {
  if (err instanceof CommandError && err.outcome === 'cancelled') return;
  toast('error', err instanceof Error ? err.message : String(err));
}
