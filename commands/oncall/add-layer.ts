import { z } from 'zod';
import { addLayer } from '../../src/api/oncall';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { layerArgs, layerFields, layerShape, layerSummary, resolveSchedule, scheduleArg, todayIn } from './schedule-fields';

export const addLayerCommand = defineCommand({
  id: 'schedule.add-layer',
  title: 'Add layer to on-call schedule',
  category: 'On call',
  description:
    'Add a rotation layer to a schedule: it wins over the layers before it wherever it has someone on call, e.g. office hours over a weekly rotation. `schedule.add-layer Platform --name office --people chloe --shift 1w --hours "mon-fri 09:00-18:00"`',
  input: z.object({ schedule: z.string({ error: 'schedule is required' }).trim().min(1, 'schedule is required'), name: z.string().trim().min(1).max(100).optional(), ...layerShape }),
  args: [scheduleArg, { name: 'name', label: 'Layer name', kind: 'text', optional: true, placeholder: 'default: Layer N' }, ...layerArgs],
  permission: 'oncall.write',
  prepare: (input, ctx) => resolveSchedule(ctx.api, input.schedule),
  async run(input, ctx, schedule) {
    if (!input.people) throw new CommandError('Give --people: who takes the shifts, in order (e.g. --people ana,ben)', 'refused');
    const fields = await layerFields(ctx.api, input);
    const { result } = await addLayer(ctx.api, schedule._id, { participants: fields.participants!, shift: { length: 1, unit: 'weeks' }, handoff: '09:00', start: todayIn(schedule.timeZone), ...fields, ...(input.name ? { name: input.name } : {}) });
    await ctx.invalidate(queryKeys.oncall.all);
    return { message: `Added to **${result.name}** ${layerSummary(result.layers.at(-1)!, result.people)}.`, data: result };
  },
});
