import { z } from 'zod';
import { formatDuration } from '../../server/contract/duration';
import { defineCommand } from '../define-command';
import { alertArg, alertLabel, alertRefSchema, durationSchema, noteArg, noteSchema, resolveAlert, setAlertStatus, statusBefore, undoStatusChange } from './alert-fields';

export const snoozeAlert = defineCommand({
  id: 'alert.snooze',
  title: 'Snooze alert',
  category: 'Alerts',
  description: 'Snooze an alert with a note: nothing more is sent until it resolves. With --for (30m, 2h, 1d) it returns to Active after that long.',
  input: z.object({ alert: alertRefSchema, note: noteSchema, for: durationSchema.optional() }),
  args: [alertArg, noteArg, { name: 'for', label: 'Snooze for', kind: 'text', optional: true, placeholder: 'e.g. 30m, 2h, 1d (empty: until it resolves)' }],
  permission: 'alerts.triage',
  inverse: (_input, result) => undoStatusChange(result),
  async run({ alert, note, for: seconds }, ctx) {
    const found = await resolveAlert(ctx.api, alert);
    const result = await setAlertStatus(ctx, found, 'snoozed', note, seconds);
    const how = seconds ? ` for ${formatDuration(seconds)}` : ' until it resolves';
    return { message: `Snoozed **${alertLabel(result)}**${how}.`, data: result, before: statusBefore(found) };
  },
});
