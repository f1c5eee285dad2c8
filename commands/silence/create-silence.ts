import { z } from 'zod';
import { MAX_TEXT } from '../../server/contract/common';
import { queryKeys } from '../../src/api/query-keys';
import { createSilence, previewSilence } from '../../src/api/silences';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { formatDuration } from '../../server/contract/duration';
import { describeMatchers, matchersArg, matchersSchema, previewText, spanSchema, timeSchema } from './matcher-fields';

export const createSilenceCommand = defineCommand({
  id: 'silence.create',
  title: 'Create silence',
  category: 'Silences',
  description:
    'Silence alerts that match (hostname, alertname, type, severity, service, mountpoint, label.<key>; = != =~ !~) for a while: they still open and keep their timeline, but notify nobody. Shows what it matches now first and asks when that is nothing. e.g. `silence.create "hostname=~web-.*, alertname=high_cpu_usage" --for 2h --comment "Load test"`.',
  input: z.object({
    matchers: matchersSchema,
    for: spanSchema('for').optional(),
    until: timeSchema('until').optional(),
    start: timeSchema('start').optional(),
    comment: z.string({ error: 'comment: say why' }).trim().min(1, 'comment: say why').max(MAX_TEXT),
  }),
  args: [
    matchersArg,
    { name: 'for', label: 'For', kind: 'text', optional: true, placeholder: 'e.g. 2h (or give --until)' },
    { name: 'comment', label: 'Comment', kind: 'text', placeholder: 'Why (shown on every silenced alert)' },
    { name: 'until', label: 'Until', kind: 'datetime', optional: true },
    { name: 'start', label: 'Starts', kind: 'datetime', optional: true },
  ],
  permission: 'alerts.triage',
  async run(input, ctx) {
    if (input.for && input.until) throw new CommandError('Give --for or --until, not both', 'refused');
    const preview = (await previewSilence(ctx.api, { matchers: input.matchers })).result;
    if (preview.warning) {
      const ok = await ctx.confirm({ title: 'This silence matches nothing', message: `${preview.warning} Create it anyway?`, confirmLabel: 'Create', cancelLabel: 'Cancel' });
      if (!ok) throw new CommandError('Cancelled: nothing was silenced', 'cancelled');
    }
    const body = {
      matchers: input.matchers,
      comment: input.comment,
      ...(input.start ? { startsAt: input.start } : {}),
      ...(input.until ? { endsAt: input.until } : { durationSeconds: input.for ?? 3600 }),
    };
    const { result } = await createSilence(ctx.api, body);
    await ctx.invalidate(queryKeys.silences.all);
    await ctx.invalidate(queryKeys.alerts.all);
    const span = input.until ? `until ${new Date(result.endsAt).toLocaleString()}` : `for ${formatDuration(input.for ?? 3600)}`;
    return { message: `Silenced \`${describeMatchers(result.matchers)}\` ${span}: ${previewText(preview)}.`, data: result };
  },
});
