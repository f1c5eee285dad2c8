import type { AlertDetail } from '../../../server/contract/alerts';
import { Button } from '../../components/ui/button';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { AckLine } from './alert-display';

const forOptions = [
  { value: 'until', label: 'Until it resolves' },
  { value: '1800', label: '30 minutes' },
  { value: '3600', label: '1 hour' },
  { value: '14400', label: '4 hours' },
  { value: '86400', label: '1 day' },
] as const;
type ForChoice = (typeof forOptions)[number]['value'];

/**
 * Issue 14 on the drawer's Action tab: Acknowledge ("I'm on it", an optional note and how long)
 * or Release, through `alert.ack` / `alert.unack` like the palette and the command line.
 */
export function AckSection({ alert, onSaved }: { alert: AlertDetail; onSaved: () => void }) {
  const runner = useCommandRunner();
  const form = useCommandForm<'alert.ack' | 'alert.unack', { note: string; forChoice: ForChoice }, never>('alert.ack', {
    initial: { note: '', forChoice: 'until' },
    toInput: ({ note, forChoice }, command) => ({ alert: alert._id, ...(note.trim() ? { note } : {}), ...(command === 'alert.ack' && forChoice !== 'until' ? { for: Number(forChoice) } : {}) }),
    field: () => undefined,
    onDone: (r) => {
      toast('success', (r?.message ?? 'Saved').replace(/\*\*/g, ''));
      form.reset();
      onSaved();
    },
  });
  const { note, forChoice } = form.values!;
  const { busy, formError: error } = form;
  // Each button asks the command it runs: Release is alert.unack, not alert.ack.
  const canAck = runner.check('alert.ack');
  const canRelease = runner.check('alert.unack');
  if (alert.status === 'resolved') return null;
  const ack = alert.acknowledgement;

  const run = (id: 'alert.ack' | 'alert.unack') => form.submit(undefined, { command: id });

  return (
    <section aria-labelledby="ack-heading" className="flex max-w-lg flex-col gap-3 border-b border-slate-200 pb-6 dark:border-slate-800">
      <h3 id="ack-heading" className="text-sm font-semibold">
        Acknowledgement
      </h3>
      {ack ? <AckLine ack={ack} withNote /> : <p className="text-sm text-slate-600 dark:text-slate-400">Nobody has acknowledged this alert. Acknowledging stops repeats and escalation; it stays Active.</p>}
      <TextField label="Acknowledgement note" placeholder="Optional: what you are doing" value={note} onChange={(v) => form.set('note', v)} />
      {!ack && <Select<ForChoice> label="Acknowledge for" options={forOptions} value={forChoice} onChange={(v) => form.set('forChoice', v)} />}
      {error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button variant="primary" isDisabled={busy} disabledReason={canAck === true ? false : canAck} onPress={() => void run('alert.ack')}>
          {ack ? 'Take over' : 'Acknowledge'}
        </Button>
        {ack && (
          <Button isDisabled={busy} disabledReason={canRelease === true ? false : canRelease} onPress={() => void run('alert.unack')}>
            Release
          </Button>
        )}
      </div>
    </section>
  );
}
