import { z } from 'zod';
import { addOverride } from '../../src/api/oncall';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { timeSchema } from '../silence/matcher-fields';
import { resolveUser } from '../user/resolve-user';
import { resolveSchedule, scheduleArg, utc } from './schedule-fields';

export const overrideCommand = defineCommand({
  id: 'oncall.override',
  title: 'Override on-call schedule',
  category: 'On call',
  description: 'Put someone on call for a range, over every layer of the schedule (overrides never overlap). `oncall.override Platform ana --from "2026-12-24 18:00" --to "2026-12-27 09:00"`',
  input: z.object({
    schedule: z.string({ error: 'schedule is required' }).trim().min(1, 'schedule is required'),
    user: z.string({ error: 'user is required' }).trim().min(1, 'user is required'),
    from: timeSchema('from'),
    to: timeSchema('to'),
  }),
  args: [scheduleArg, { name: 'user', label: 'Who covers', kind: 'entity', entity: 'user', positional: true }, { name: 'from', label: 'From', kind: 'datetime' }, { name: 'to', label: 'To', kind: 'datetime' }],
  permission: 'oncall.write',
  async run(input, ctx) {
    const schedule = await resolveSchedule(ctx.api, input.schedule);
    const user = await resolveUser(ctx.api, input.user);
    const { result } = await addOverride(ctx.api, schedule._id, { user: user._id, start: input.from, end: input.to });
    await ctx.invalidate(queryKeys.oncall.all);
    return { message: `**${user.username}** is on call for **${result.name}** from ${utc(input.from)} to ${utc(input.to)}.`, data: result };
  },
});
