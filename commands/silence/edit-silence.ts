import { z } from 'zod';
import { MAX_TEXT } from '../../server/contract/common';
import { queryKeys } from '../../src/api/query-keys';
import { updateSilence } from '../../src/api/silences';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { describeMatchers, matchersSchema, spanSchema, timeSchema } from './matcher-fields';
import { resolveSilence } from './resolve-silence';

export const editSilence = defineCommand({
  id: 'silence.edit',
  title: 'Edit silence',
  category: 'Silences',
  description: 'Change an active or pending silence: its matchers, comment or end (--until, or --for from now). Without a change, opens it on the Silences screen.',
  input: z.object({
    silence: z.string({ error: 'silence is required' }).trim().min(1, 'silence is required'),
    matchers: matchersSchema.optional(),
    comment: z.string().trim().min(1, 'comment: say why').max(MAX_TEXT).optional(),
    until: timeSchema('until').optional(),
    for: spanSchema('for').optional(),
  }),
  args: [
    { name: 'silence', label: 'Silence', kind: 'entity', entity: 'silence', positional: true },
    { name: 'matchers', label: 'Matchers', kind: 'text', optional: true, placeholder: 'e.g. hostname=~web-.*' },
    { name: 'comment', label: 'Comment', kind: 'text', optional: true },
    { name: 'until', label: 'Until', kind: 'datetime', optional: true },
    { name: 'for', label: 'For (from now)', kind: 'text', optional: true, placeholder: 'e.g. 2h' },
  ],
  permission: 'alerts.triage',
  async run(input, ctx) {
    const found = await resolveSilence(ctx.api, input.silence);
    if (input.until && input.for) throw new CommandError('Give --until or --for, not both', 'refused');
    const endsAt = input.until ?? (input.for ? new Date(Date.now() + input.for * 1000).toISOString() : undefined);
    const body = { ...(input.matchers ? { matchers: input.matchers } : {}), ...(input.comment ? { comment: input.comment } : {}), ...(endsAt ? { endsAt } : {}) };
    if (!Object.keys(body).length) {
      ctx.navigate(`/notifications/silences?edit=${found._id}`);
      return { message: `Opened the silence \`${describeMatchers(found.matchers)}\`.`, data: found };
    }
    const { result } = await updateSilence(ctx.api, found._id, body);
    await ctx.invalidate(queryKeys.silences.all);
    await ctx.invalidate(queryKeys.alerts.all);
    return { message: `Silence \`${describeMatchers(result.matchers)}\` now ends ${new Date(result.endsAt).toLocaleString()} (“${result.comment}”).`, data: result };
  },
});
