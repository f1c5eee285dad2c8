import { z } from 'zod';
import { createSchedule } from '../../src/api/oncall';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { localZone } from '../maintenance/window-fields';
import { layerArgs, layerFields, layerShape, layerSummary, todayIn } from './schedule-fields';

export const createScheduleCommand = defineCommand({
  id: 'schedule.create',
  title: 'Create on-call schedule',
  category: 'On call',
  description:
    'Create an on-call schedule in a time zone (--tz, default this browser’s) with its first layer: --people in rotation order, each taking a --shift (1w, 1d, 12h) that hands off at --handoff (HH:MM) from the --start date, optionally only during --hours (mon-fri 09:00-18:00). `schedule.create Platform --tz Europe/London --people ana,ben --shift 1w --handoff 09:00`',
  input: z.object({
    name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(100),
    tz: z.string().trim().min(1).max(64).optional(),
    layer: z.string().trim().min(1).max(100).optional(),
    description: z.string().trim().max(500).optional(),
    ...layerShape,
  }),
  args: [
    { name: 'name', label: 'Name', kind: 'text', positional: true, placeholder: 'e.g. Platform primary' },
    { name: 'tz', label: 'Time zone', kind: 'text', optional: true, placeholder: 'e.g. Europe/London (default: this browser’s)' },
    ...layerArgs,
    { name: 'layer', label: 'First layer’s name', kind: 'text', optional: true, placeholder: 'default: Layer 1' },
    { name: 'description', label: 'Description', kind: 'text', optional: true },
  ],
  permission: 'oncall.write',
  async run(input, ctx) {
    if (!input.people) throw new CommandError('Give --people: who takes the shifts, in order (e.g. --people ana,ben)', 'refused');
    const timeZone = input.tz ?? localZone();
    const fields = await layerFields(ctx.api, input);
    const { result } = await createSchedule(ctx.api, {
      name: input.name,
      timeZone,
      ...(input.description ? { description: input.description } : {}),
      layers: [{ participants: fields.participants!, shift: { length: 1, unit: 'weeks' }, handoff: '09:00', start: todayIn(timeZone), ...fields, ...(input.layer ? { name: input.layer } : {}) }],
    });
    await ctx.invalidate(queryKeys.oncall.all);
    return { message: `Created the on-call schedule **${result.name}** (${result.timeZone}): ${layerSummary(result.layers[0]!, result.people)}.`, data: result };
  },
});
