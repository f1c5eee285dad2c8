import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { expireSilence } from '../../src/api/silences';
import { defineCommand } from '../define-command';
import { describeMatchers } from './matcher-fields';
import { resolveSilence } from './resolve-silence';

export const expireSilenceCommand = defineCommand({
  id: 'silence.expire',
  title: 'Expire silence',
  category: 'Silences',
  description: 'End a silence now: the alerts it held back that still fire are notified at once.',
  input: z.object({ silence: z.string({ error: 'silence is required' }).trim().min(1, 'silence is required') }),
  args: [{ name: 'silence', label: 'Silence', kind: 'entity', entity: 'silence', positional: true }],
  permission: 'alerts.triage',
  async run({ silence }, ctx) {
    const found = await resolveSilence(ctx.api, silence);
    const { result } = await expireSilence(ctx.api, found._id);
    await ctx.invalidate(queryKeys.silences.all);
    await ctx.invalidate(queryKeys.alerts.all);
    return { message: `Expired the silence \`${describeMatchers(result.matchers)}\` (“${result.comment}”).`, data: result };
  },
});
