import { z } from 'zod';
import { createWindow } from '../../src/api/maintenance-windows';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { localZone, serverIds, windowArgs, windowShape, windowSummary } from './window-fields';

export const createWindowCommand = defineCommand({
  id: 'maintenance.create',
  title: 'Create maintenance window',
  category: 'Maintenance',
  description:
    'Plan downtime for servers (--servers) or alerts matching --matchers: alerts inside it open marked "in maintenance" and notify nobody. Once (--start, --end or --for) or recurring (--rrule "FREQ=WEEKLY;BYDAY=SU") in a time zone (--tz). A window in the past marks the alerts that opened inside it as planned downtime.',
  input: z.object({ name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(200), ...windowShape }),
  args: [{ name: 'name', label: 'Name', kind: 'text', positional: true, placeholder: 'e.g. Sunday patching' }, ...windowArgs],
  permission: 'servers.write',
  async run(input, ctx) {
    if (!input.start) throw new CommandError('Give --start (when the first occurrence begins)', 'refused');
    if (!input.end === !input.for) throw new CommandError('Give --end or --for (how long each occurrence lasts)', 'refused');
    const ids = (await serverIds(ctx.api, input.servers)) ?? [];
    const endsAt = input.end ?? new Date(Date.parse(input.start) + input.for! * 1000).toISOString();
    const { result } = await createWindow(ctx.api, {
      name: input.name,
      comment: input.comment ?? '',
      serverIds: ids,
      matchers: input.matchers ?? [],
      startsAt: input.start,
      endsAt,
      timezone: input.tz ?? localZone(),
      rrule: input.rrule || null,
    });
    await ctx.invalidate(queryKeys.maintenanceWindows.all);
    await ctx.invalidate(queryKeys.alerts.all);
    const marked = result.marked ? ` Marked ${result.marked} past alert${result.marked === 1 ? '' : 's'} as planned downtime.` : '';
    return { message: `Created ${windowSummary(result)}.${marked}`, data: result };
  },
});
