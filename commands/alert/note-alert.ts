import { z } from 'zod';
import { defineCommand } from '../define-command';
import { alertArg, alertLabel, alertRefSchema, noteArg, noteSchema, resolveAlert, setAlertStatus } from './alert-fields';

export const noteAlert = defineCommand({
  id: 'alert.note',
  title: 'Add note to alert',
  category: 'Alerts',
  description: 'Add a note to an alert’s timeline without changing its status.',
  input: z.object({ alert: alertRefSchema, note: noteSchema }),
  args: [alertArg, noteArg],
  permission: 'alerts.triage',
  async run({ alert, note }, ctx) {
    const found = await resolveAlert(ctx.api, alert);
    // The API has no note-only call: the same status again is a note. A snooze with a duration
    // is sent again with what is left of it, so a note does not make the snooze endless.
    const left = found.status === 'snoozed' && found.snoozedUntil ? Math.round((Date.parse(found.snoozedUntil) - Date.now()) / 1000) : undefined;
    const result = await setAlertStatus(ctx, found, found.status, note, left && left >= 60 ? left : undefined);
    return { message: `Added a note to **${alertLabel(result)}**.`, data: result };
  },
});
