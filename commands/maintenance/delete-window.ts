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
  input: z.object({ window: z.string({ error: 'window is required' }).trim().min(1, 'window is required') }),
  args: [windowArg],
  permission: 'servers.write',
  // Found before asking, so the question names it; the run deletes the window found.
  prepare: (input, ctx) => resolveWindow(ctx.api, input.window),
  destructive: { title: 'Delete maintenance window', message: (_input, w) => `Delete the maintenance window “${w.name}”?`, confirmLabel: 'Delete', cancelLabel: 'Cancel' },
  async run(_input, ctx, w) {
    await deleteWindow(ctx.api, w._id);
    await ctx.invalidate(queryKeys.maintenanceWindows.all);
    await ctx.invalidate(queryKeys.alerts.all);
    return { message: `Deleted the maintenance window **${w.name}**.` };
  },
});
