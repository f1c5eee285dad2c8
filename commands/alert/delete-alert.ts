import { z } from 'zod';
import { alertStatusLabels } from '../../server/contract/alerts';
import { deleteAlert as deleteAlertCall } from '../../src/api/alerts';
import { staleAfter } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { alertArg, alertLabel, alertRefSchema, resolveAlert } from './alert-fields';
import { invalidateAll } from '../stale';

export const deleteAlert = defineCommand({
  id: 'alert.delete',
  title: 'Delete alert',
  category: 'Alerts',
  description: 'Delete an alert with its timeline and delivery log.',
  input: z.object({ alert: alertRefSchema }),
  args: [alertArg],
  permission: 'alerts.delete',
  // Resolve before asking, so a wrong id answers "No alert …" instead of "Are you sure?"; the run deletes the alert found.
  prepare: ({ alert }, ctx) => resolveAlert(ctx.api, alert),
  // SPEC §2 alert drawer: 'Delete the alert?' / 'Are you sure to delete this alert?' Yes/No.
  // The confirmation names the alert it would delete (issue 13), below SPEC's question.
  destructive: {
    title: 'Delete the alert?',
    message: () => 'Are you sure to delete this alert?',
    target: (_input, found) => `${found.alertname} @ ${found.hostname} · ${alertStatusLabels[found.status]} · ${found.severity}`,
    confirmLabel: 'Yes',
    cancelLabel: 'No',
  },
  async run(_input, ctx, found) {
    await deleteAlertCall(ctx.api, found._id);
    await invalidateAll(ctx, staleAfter.alert);
    return { message: `Deleted alert **${alertLabel(found)}**.`, data: found };
  },
});
