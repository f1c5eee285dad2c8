import { useState } from 'react';
import type { CommandId } from '../../../commands';
import { alertStatuses, alertStatusLabels, type AlertDetail, type AlertStatus } from '../../../server/contract/alerts';
import { Button } from '../../components/ui/button';
import { Select } from '../../components/ui/select';
import { TextArea } from '../../components/ui/text-area';
import { toast } from '../../components/ui/toast';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';

/** The command each chosen status runs; all of them need a note (SPEC §5). */
const commandFor = { firing: 'alert.reopen', resolved: 'alert.resolve', snoozed: 'alert.snooze' } as const satisfies Record<AlertStatus, CommandId>;

/** Extension: a snooze may end by itself; 'until' lasts until the alert resolves. */
const snoozeOptions = [
  { value: 'until', label: 'Until it resolves' },
  { value: '1800', label: '30 minutes' },
  { value: '3600', label: '1 hour' },
  { value: '14400', label: '4 hours' },
  { value: '86400', label: '1 day' },
] as const;
type SnoozeChoice = (typeof snoozeOptions)[number]['value'];
interface Values {
  snoozeFor: SnoozeChoice;
  notes: string;
}
const blank: Values = { snoozeFor: 'until', notes: '' };

/** SPEC §2 Action tab: choose status, add notes, Save; 'Update Status' and 'Add Notes' when missing. */
export function AlertActionForm({ alert, onSaved }: { alert: AlertDetail; onSaved: () => void }) {
  const runner = useCommandRunner();
  const [status, setStatus] = useState<AlertStatus | null>(null);
  // The form's command is the chosen status's; all of them take the alert and a note.
  const form = useCommandForm<(typeof commandFor)[AlertStatus], Values, 'status' | 'notes'>(commandFor[status ?? 'firing'], {
    initial: blank,
    toInput: (v) => ({ alert: alert._id, note: v.notes, ...(status === 'snoozed' && v.snoozeFor !== 'until' ? { for: Number(v.snoozeFor) } : {}) }),
    validate: (v) => ({ status: status ? undefined : 'Update Status', notes: v.notes.trim() ? undefined : 'Add Notes' }),
    // The form shows a failure under its fields, so the run reports nothing itself.
    field: (name) => (name === 'status' || name === 'notes' ? name : undefined),
    onDone: (result) => {
      toast('success', (result?.message ?? 'Saved').replace(/\*\*/g, ''));
      setStatus(null);
      form.reset(blank);
      onSaved();
    },
  });
  const { snoozeFor, notes } = form.values!;
  const { errors, busy: saving, setErrors } = form;
  // The form's own command once a status is chosen; before that, whether notes may be added at all.
  const allowed = runner.check(status ? commandFor[status] : 'alert.note');
  useUnsavedChanges(status !== null || notes.trim() !== '');
  const save = () => form.submit();

  if (allowed !== true) return <p className="text-sm text-slate-600 dark:text-slate-400">{allowed}</p>;
  return (
    <form
      aria-label="Update alert"
      noValidate
      className="flex max-w-lg flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Now <strong>{alertStatusLabels[alert.status]}</strong>. Choosing the same status adds the notes to the timeline.
      </p>
      <Select<AlertStatus>
        label="Status"
        placeholder="Select status"
        isRequired
        options={alertStatuses.map((s) => ({ value: s, label: alertStatusLabels[s] }))}
        value={status}
        onChange={(s) => {
          setStatus(s);
          setErrors((e) => ({ ...e, status: undefined }));
        }}
        errorMessage={errors.status}
      />
      {status === 'snoozed' && <Select<SnoozeChoice> label="Snooze for" options={snoozeOptions} value={snoozeFor} onChange={(v) => form.set('snoozeFor', v)} />}
      <TextArea
        label="Notes"
        placeholder="What was done, or why (markdown)"
        isRequired
        value={notes}
        onChange={(v) => {
          form.update((prev) => ({ ...prev, notes: v }));
          if (v.trim()) setErrors((e) => ({ ...e, notes: undefined }));
        }}
        errorMessage={errors.notes}
      />
      {form.formError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {form.formError}
        </p>
      )}
      <div>
        <Button type="submit" variant="primary" isDisabled={saving}>
          Save
        </Button>
      </div>
    </form>
  );
}
