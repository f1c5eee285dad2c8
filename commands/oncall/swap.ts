import { z } from 'zod';
import { addSwap, whoIsOnCall } from '../../src/api/oncall';
import { queryKeys } from '../../src/api/query-keys';
import type { Api } from '../../src/api/client';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { timeSchema } from '../silence/matcher-fields';
import { resolveSchedule, scheduleArg, utc } from './schedule-fields';

/** The layer shift on call at an instant (its layer and start), as a swap names it. */
async function shiftAt(api: Api, schedule: string, at: string, which: string) {
  const [who] = (await whoIsOnCall(api, { schedule, at })).result;
  if (!who?.source || who.source.type !== 'layer') throw new CommandError(`At ${utc(at)} ${who?.source ? 'an override covers the schedule' : 'nobody is on call'}: --${which} names a time inside a layer's shift`, 'refused');
  return { layer: who.source.layer, start: who.source.shiftStart, name: who.source.layerName, person: who.person!.username };
}

export const swapCommand = defineCommand({
  id: 'oncall.swap',
  title: 'Swap on-call shifts',
  category: 'On call',
  description: 'Swap the people of two shifts of a schedule, each named by a time inside it: the shifts keep their times, only who takes them changes. `oncall.swap Platform --first "2026-12-09 12:00" --second "2026-12-16 12:00"`',
  input: z.object({ schedule: z.string({ error: 'schedule is required' }).trim().min(1, 'schedule is required'), first: timeSchema('first'), second: timeSchema('second') }),
  args: [scheduleArg, { name: 'first', label: 'A time in the first shift', kind: 'datetime' }, { name: 'second', label: 'A time in the second shift', kind: 'datetime' }],
  permission: 'oncall.write',
  async run(input, ctx) {
    const schedule = await resolveSchedule(ctx.api, input.schedule);
    const first = await shiftAt(ctx.api, schedule._id, input.first, 'first');
    const second = await shiftAt(ctx.api, schedule._id, input.second, 'second');
    const { result } = await addSwap(ctx.api, schedule._id, { first: { layer: first.layer, start: first.start }, second: { layer: second.layer, start: second.start } });
    await ctx.invalidate(queryKeys.oncall.all);
    return { message: `Swapped in **${result.name}**: **${second.person}** takes ${first.person}'s shift from ${utc(first.start)}, **${first.person}** takes ${second.person}'s from ${utc(second.start)}.`, data: result };
  },
});
