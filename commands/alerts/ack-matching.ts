import { z } from 'zod';
import { ackAlert } from '../../src/api/alerts';
import { queryKeys } from '../../src/api/query-keys';
import { ackDurationSchema, ackForArg, ackSpan, optionalNoteArg, optionalNoteSchema } from '../alert/ack-fields';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { bulkActions, changeAll, collectMatching, confirmQuestion, countMatching, describeFilter, matchingFilterArgs, matchingFilterShape, matchingListFilter, summary } from './matching-filter';

const action = bulkActions.ack;

export const ackMatching = defineCommand({
  id: 'alerts.ack-matching',
  title: 'Acknowledge matching alerts',
  category: 'Alerts',
  description: 'Acknowledge every unowned Active or Snoozed alert that matches a filter (host, name, severity, status), with one optional note and --for; asks with the count first.',
  input: z.object({ ...matchingFilterShape, note: optionalNoteSchema, for: ackDurationSchema.optional() }),
  args: [...matchingFilterArgs, optionalNoteArg, ackForArg],
  permission: 'alerts.triage',
  prepare: async (input, ctx) => {
    const matched = await countMatching(ctx.api, matchingListFilter(input, action));
    if (matched === 0) throw new CommandError(`No unacknowledged open alerts match ${describeFilter(input)}`);
    return matched;
  },
  destructive: { title: 'Acknowledge alerts', message: (input, matched) => `${confirmQuestion(action, matched)} (${describeFilter(input)}; ${ackSpan(input.for)})`, confirmLabel: 'Yes', cancelLabel: 'No' },
  async run(input, ctx) {
    const alerts = await collectMatching(ctx.api, matchingListFilter(input, action));
    const body = { ...(input.note ? { note: input.note } : {}), ...(input.for ? { forSeconds: input.for } : {}) };
    const result = await changeAll(alerts, (a) => ackAlert(ctx.api, a._id, body));
    await ctx.invalidate(queryKeys.alerts.all);
    return { message: summary('Acknowledged', input, result), data: { ok: result.ok, failed: result.failed.map((f) => f.alert._id) } };
  },
});
