import { z } from 'zod';
import { defineCommand } from '../define-command';
import { alertArg, alertLabel, alertRefSchema, noteArg, noteSchema, resolveAlert, setAlertStatus, statusBefore, undoStatusChange } from './alert-fields';

export const resolveAlertCommand = defineCommand({
  id: 'alert.resolve',
  title: 'Resolve alert',
  category: 'Alerts',
  description: 'Mark an alert resolved with a note; the timeline records the note and who wrote it.',
  input: z.object({ alert: alertRefSchema, note: noteSchema }),
  args: [alertArg, noteArg],
  permission: 'alerts.triage',
  inverse: (_input, result) => undoStatusChange(result),
  async run({ alert, note }, ctx) {
    const found = await resolveAlert(ctx.api, alert);
    const was = found.status;
    const result = await setAlertStatus(ctx, found, 'resolved', note);
    return { message: was === 'resolved' ? `**${alertLabel(result)}** was already resolved; the note is on its timeline.` : `Resolved **${alertLabel(result)}**.`, data: result, before: statusBefore(found) };
  },
});
