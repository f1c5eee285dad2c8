import { z } from 'zod';
import { updateAlert } from '../../src/api/alerts';
import { staleAfter } from '../../src/api/query-keys';
import { formatDuration } from '../../server/contract/duration';
import { durationSchema, noteArg, noteSchema } from '../alert/alert-fields';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { bulkActions, changeAll, collectMatching, confirmQuestion, countMatching, describeFilter, matchingFilterArgs, matchingFilterShape, matchingListFilter, summary } from './matching-filter';
import { invalidateAll } from '../stale';

const action = bulkActions.snooze;

export const snoozeMatching = defineCommand({
  id: 'alerts.snooze-matching',
  title: 'Snooze matching alerts',
  category: 'Alerts',
  description: 'Snooze every Active or Snoozed alert that matches a filter (host, name, severity, status), with one note and an optional --for duration; asks with the count first.',
  input: z.object({ ...matchingFilterShape, note: noteSchema, for: durationSchema.optional() }),
  args: [...matchingFilterArgs, noteArg, { name: 'for', label: 'Snooze for', kind: 'text', optional: true, placeholder: 'e.g. 30m, 2h, 1d (empty: until they resolve)' }],
  permission: 'alerts.triage',
  prepare: async (input, ctx) => {
    const matched = await countMatching(ctx.api, matchingListFilter(input, action));
    if (matched === 0) throw new CommandError(`No open alerts match ${describeFilter(input)}`);
    return matched;
  },
  destructive: {
    title: 'Snooze alerts',
    message: (input, matched) => `${confirmQuestion(action, matched)} (${describeFilter(input)}; ${input.for ? `for ${formatDuration(input.for)}` : 'until they resolve'})`,
    confirmLabel: 'Yes',
    cancelLabel: 'No',
  },
  async run(input, ctx) {
    const alerts = await collectMatching(ctx.api, matchingListFilter(input, action));
    const result = await changeAll(alerts, (a) => updateAlert(ctx.api, a._id, { status: 'snoozed', log: input.note, ...(input.for ? { snoozeSeconds: input.for } : {}) }));
    await invalidateAll(ctx, staleAfter.alert);
    return { message: summary('Snoozed', input, result), data: { ok: result.ok, failed: result.failed.map((f) => f.alert._id) } };
  },
});
