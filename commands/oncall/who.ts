import { z } from 'zod';
import { whoIsOnCall } from '../../src/api/oncall';
import { defineCommand } from '../define-command';
import { timeSchema } from '../silence/matcher-fields';
import { utc } from './schedule-fields';

export const whoCommand = defineCommand({
  id: 'oncall.who',
  title: 'Who is on call',
  category: 'On call',
  description: 'Who is on call now, or at --at, in one schedule or in every one, and until when. `oncall.who Platform --at "2026-12-25 03:00"`',
  input: z.object({ schedule: z.string().trim().min(1).optional(), at: timeSchema('at').optional() }),
  args: [
    { name: 'schedule', label: 'Schedule', kind: 'entity', entity: 'schedule', positional: true, optional: true },
    { name: 'at', label: 'At', kind: 'datetime', optional: true },
  ],
  permission: 'read',
  history: false,
  async run(input, ctx) {
    const { result } = await whoIsOnCall(ctx.api, { ...(input.schedule ? { schedule: input.schedule } : {}), ...(input.at ? { at: input.at } : {}) });
    if (!result.length) return { message: 'There are no on-call schedules yet: create one with `schedule.create`.', data: result };
    const lines = result.map((w) => {
      if (!w.person) return `- **${w.schedule.name}**: nobody is on call`;
      const why = w.source?.type === 'override' ? 'override' : w.source?.layerName;
      return `- **${w.schedule.name}**: **${w.person.username}** (${why}) until ${utc(w.until!)}`;
    });
    return { message: `On call ${input.at ? `at ${utc(input.at)}` : 'now'}:\n${lines.join('\n')}`, data: result };
  },
});
