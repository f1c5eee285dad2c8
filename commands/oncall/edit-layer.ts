import { z } from 'zod';
import { editLayer } from '../../src/api/oncall';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { layerArgs, layerFields, layerShape, layerSummary, resolveSchedule, scheduleArg } from './schedule-fields';

export const editLayerCommand = defineCommand({
  id: 'schedule.edit-layer',
  title: 'Edit on-call layer',
  category: 'On call',
  description:
    'Change a layer of a schedule, named by its name or number: its people, shift, handoff, start, hours (--hours always removes restrictions) or name (--rename). `schedule.edit-layer Platform primary --people ana,ben,chloe`',
  input: z.object({
    schedule: z.string({ error: 'schedule is required' }).trim().min(1, 'schedule is required'),
    layer: z.string({ error: 'layer is required' }).trim().min(1, 'layer is required'),
    rename: z.string().trim().min(1).max(100).optional(),
    ...layerShape,
  }),
  args: [scheduleArg, { name: 'layer', label: 'Layer', kind: 'text', positional: true, placeholder: 'Its name or number (1 is the first)' }, { name: 'rename', label: 'New name', kind: 'text', optional: true }, ...layerArgs],
  permission: 'oncall.write',
  prepare: (input, ctx) => resolveSchedule(ctx.api, input.schedule),
  async run(input, ctx, schedule) {
    const changes = { ...(await layerFields(ctx.api, input)), ...(input.rename ? { name: input.rename } : {}) };
    if (!Object.keys(changes).length) throw new CommandError('Nothing to change: give --people, --shift, --handoff, --start, --hours, --from, --until or --rename', 'refused');
    const { result } = await editLayer(ctx.api, schedule._id, input.layer, changes);
    const layer = result.layers.find((l) => l.name === (input.rename ?? input.layer)) ?? result.layers[Number(input.layer) - 1] ?? result.layers[0]!;
    await ctx.invalidate(queryKeys.oncall.all);
    return { message: `Changed the layer of **${result.name}**: ${layerSummary(layer, result.people)}.`, data: result };
  },
});
