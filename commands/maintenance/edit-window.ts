import { z } from 'zod';
import { updateWindow } from '../../src/api/maintenance-windows';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveWindow, serverIds, windowArg, windowArgs, windowShape, windowSummary } from './window-fields';

export const editWindowCommand = defineCommand({
  id: 'maintenance.edit',
  title: 'Edit maintenance window',
  category: 'Maintenance',
  description: 'Change a maintenance window (name, servers, matchers, times, --rrule, or --rrule none to make it one-off). Without a change, opens it on the Maintenance screen.',
  input: z.object({ window: z.string({ error: 'window is required' }).trim().min(1, 'window is required'), name: z.string().trim().min(1).max(200).optional(), ...windowShape }),
  args: [windowArg, { name: 'name', label: 'New name', kind: 'text', optional: true }, ...windowArgs],
  permission: 'servers.write',
  async run(input, ctx) {
    const found = await resolveWindow(ctx.api, input.window);
    if (input.end && input.for) throw new CommandError('Give --end or --for, not both', 'refused');
    const startsAt = input.start ?? found.startsAt;
    const endsAt = input.end ?? (input.for ? new Date(Date.parse(startsAt) + input.for * 1000).toISOString() : input.start ? new Date(Date.parse(startsAt) + Date.parse(found.endsAt) - Date.parse(found.startsAt)).toISOString() : undefined);
    const ids = await serverIds(ctx.api, input.servers);
    const body = {
      ...(input.name ? { name: input.name } : {}),
      ...(input.comment !== undefined ? { comment: input.comment } : {}),
      ...(ids ? { serverIds: ids } : {}),
      ...(input.matchers ? { matchers: input.matchers } : {}),
      ...(input.start ? { startsAt } : {}),
      ...(endsAt ? { endsAt } : {}),
      ...(input.tz ? { timezone: input.tz } : {}),
      ...(input.rrule !== undefined ? { rrule: input.rrule === '' || input.rrule.toLowerCase() === 'none' ? null : input.rrule } : {}),
    };
    if (!Object.keys(body).length) {
      ctx.navigate(`/notifications/maintenance?edit=${found._id}`);
      return { message: `Opened ${windowSummary(found)}.`, data: found };
    }
    const { result } = await updateWindow(ctx.api, found._id, body);
    await ctx.invalidate(queryKeys.maintenanceWindows.all);
    await ctx.invalidate(queryKeys.alerts.all);
    return { message: `Updated ${windowSummary(result)}.`, data: result };
  },
});
