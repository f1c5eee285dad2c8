import { z } from 'zod';
import { defineCommand } from '../define-command';
import { alertArg, alertLabel, alertRefSchema, noteArg, noteSchema, resolveAlert, setAlertStatus, statusBefore, undoStatusChange } from './alert-fields';

export const reopenAlert = defineCommand({
  id: 'alert.reopen',
  title: 'Reopen alert',
  category: 'Alerts',
  description: 'Set a resolved or snoozed alert back to Active with a note.',
  input: z.object({ alert: alertRefSchema, note: noteSchema }),
  args: [alertArg, noteArg],
  permission: 'alerts.triage',
  inverse: (_input, result) => undoStatusChange(result),
  async run({ alert, note }, ctx) {
    const found = await resolveAlert(ctx.api, alert);
    const result = await setAlertStatus(ctx, found, 'firing', note);
    return { message: found.status === 'firing' ? `**${alertLabel(result)}** was already Active; the note is on its timeline.` : `Reopened **${alertLabel(result)}**.`, data: result, before: statusBefore(found) };
  },
});
