import { z } from 'zod';
import { deleteWindow } from '../../src/api/maintenance-windows';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { resolveWindow, windowArg } from './window-fields';

export const deleteWindowCommand = defineCommand({
  id: 'maintenance.delete',
  title: 'Delete maintenance window',
  category: 'Maintenance',
  description: 'Delete a maintenance window: its servers’ alerts notify again at once (past alerts keep their planned-downtime notes).',
  input: z.object({ window: z.string({ error: 'window is required' }).trim().min(1, 'window is required'), resolved: z.object({ _id: z.string(), name: z.string() }).optional() }),
  args: [windowArg],
  permission: 'servers.write',
  prepare: async (input, ctx) => {
    const w = await resolveWindow(ctx.api, input.window);
    return { ...input, resolved: { _id: w._id, name: w.name } };
  },
  destructive: { title: 'Delete maintenance window', message: (i) => `Delete the maintenance window “${i.resolved?.name ?? i.window}”?`, confirmLabel: 'Delete', cancelLabel: 'Cancel' },
  async run(input, ctx) {
    const w = input.resolved ?? (await resolveWindow(ctx.api, input.window));
    await deleteWindow(ctx.api, w._id);
    await ctx.invalidate(queryKeys.maintenanceWindows.all);
    await ctx.invalidate(queryKeys.alerts.all);
    return { message: `Deleted the maintenance window **${w.name}**.` };
  },
});
