import { z } from 'zod';
import { unackAlert } from '../../src/api/alerts';
import { queryKeys } from '../../src/api/query-keys';
import { optionalNoteArg, optionalNoteSchema } from '../alert/ack-fields';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { bulkActions, changeAll, collectMatching, confirmQuestion, countMatching, describeFilter, matchingFilterArgs, matchingFilterShape, matchingListFilter, summary } from './matching-filter';

const action = bulkActions.unack;

export const unackMatching = defineCommand({
  id: 'alerts.unack-matching',
  title: 'Release matching acknowledgements',
  category: 'Alerts',
  description: 'Release the acknowledgement of every acknowledged open alert that matches a filter (host, name, severity, status); asks with the count first.',
  input: z.object({ ...matchingFilterShape, note: optionalNoteSchema }),
  args: [...matchingFilterArgs, optionalNoteArg],
  permission: 'alerts.triage',
  prepare: async (input, ctx) => {
    const matched = await countMatching(ctx.api, matchingListFilter(input, action));
    if (matched === 0) throw new CommandError(`No acknowledged open alerts match ${describeFilter(input)}`);
    return matched;
  },
  destructive: { title: 'Release acknowledgements', message: (input, matched) => `${confirmQuestion(action, matched)} (${describeFilter(input)})`, confirmLabel: 'Yes', cancelLabel: 'No' },
  async run(input, ctx) {
    const alerts = await collectMatching(ctx.api, matchingListFilter(input, action));
    const result = await changeAll(alerts, (a) => unackAlert(ctx.api, a._id, input.note ? { note: input.note } : {}));
    await ctx.invalidate(queryKeys.alerts.all);
    return { message: summary('Released', input, result), data: { ok: result.ok, failed: result.failed.map((f) => f.alert._id) } };
  },
});
