import { z } from 'zod';
import { defineCommand } from '../define-command';
import { alertArg, alertLabel, alertRefSchema, resolveAlert } from './alert-fields';

export const showAlert = defineCommand({
  id: 'alert.show',
  title: 'Show alert',
  category: 'Alerts',
  description: 'Open an alert’s detail drawer (Overview, Timeline, Action), by id or by words that match one alert.',
  input: z.object({ alert: alertRefSchema }),
  args: [alertArg],
  permission: 'read',
  history: false,
  async run({ alert }, ctx) {
    const found = await resolveAlert(ctx.api, alert);
    ctx.navigate(`/notifications/show/${found._id}`);
    return { message: `Opened **${alertLabel(found)}**.`, data: found };
  },
});
