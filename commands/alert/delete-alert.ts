import { z } from 'zod';
import { alertStatusLabels } from '../../server/contract/alerts';
import { deleteAlert as deleteAlertCall } from '../../src/api/alerts';
import { staleAfter } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { alertArg, alertLabel, alertRefSchema, resolveAlert } from './alert-fields';
import { invalidateAll } from '../stale';

type Prepared = { alert: string; target?: string };

export const deleteAlert = defineCommand({
  id: 'alert.delete',
  title: 'Delete alert',
  category: 'Alerts',
  description: 'Delete an alert with its timeline and delivery log.',
  input: z.object({ alert: alertRefSchema }),
  args: [alertArg],
  permission: 'alerts.delete',
  // SPEC §2 alert drawer: 'Delete the alert?' / 'Are you sure to delete this alert?' Yes/No.
  // The confirmation names the alert it would delete (issue 13), below SPEC's question.
  destructive: { title: 'Delete the alert?', message: () => 'Are you sure to delete this alert?', target: (input) => (input as Prepared).target, confirmLabel: 'Yes', cancelLabel: 'No' },
  // Resolve before asking, so a wrong id answers "No alert …" instead of "Are you sure?".
  prepare: async ({ alert }, ctx) => {
    const found = await resolveAlert(ctx.api, alert);
    return { alert: found._id, target: `${found.alertname} @ ${found.hostname} · ${alertStatusLabels[found.status]} · ${found.severity}` } as Prepared;
  },
  async run({ alert }, ctx) {
    const found = await resolveAlert(ctx.api, alert);
    await deleteAlertCall(ctx.api, found._id);
    await invalidateAll(ctx, staleAfter.alert);
    return { message: `Deleted alert **${alertLabel(found)}**.`, data: found };
  },
});
