import { z } from 'zod';
import { updateAlert } from '../../src/api/alerts';
import { staleAfter } from '../../src/api/query-keys';
import { noteArg, noteSchema } from '../alert/alert-fields';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { bulkActions, changeAll, collectMatching, confirmQuestion, countMatching, describeFilter, matchingFilterArgs, matchingFilterShape, matchingListFilter, summary } from './matching-filter';
import { invalidateAll } from '../stale';

const action = bulkActions.resolve;

export const resolveMatching = defineCommand({
  id: 'alerts.resolve-matching',
  title: 'Resolve matching alerts',
  category: 'Alerts',
  description: 'Resolve every Active or Snoozed alert that matches a filter (host, name, severity, status), with one note; asks with the count first.',
  input: z.object({ ...matchingFilterShape, note: noteSchema }),
  args: [...matchingFilterArgs, noteArg],
  permission: 'alerts.triage',
  // Count first, so the question says how many ("Resolve 12 alerts?") and nothing matching says so.
  prepare: async (input, ctx) => {
    const matched = await countMatching(ctx.api, matchingListFilter(input, action));
    if (matched === 0) throw new CommandError(`No open alerts match ${describeFilter(input)}`);
    return matched;
  },
  destructive: { title: 'Resolve alerts', message: (input, matched) => `${confirmQuestion(action, matched)} (${describeFilter(input)})`, confirmLabel: 'Yes', cancelLabel: 'No' },
  async run(input, ctx) {
    const alerts = await collectMatching(ctx.api, matchingListFilter(input, action));
    const result = await changeAll(alerts, (a) => updateAlert(ctx.api, a._id, { status: 'resolved', log: input.note }));
    await invalidateAll(ctx, staleAfter.alert);
    return { message: summary('Resolved', input, result), data: { ok: result.ok, failed: result.failed.map((f) => f.alert._id) } };
  },
});
