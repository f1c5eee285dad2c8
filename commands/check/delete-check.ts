import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { deleteCheck as deleteCheckCall } from '../../src/api/checks';
import { defineCommand } from '../define-command';
import { checkArg, resolveCheck } from './check-fields';

export const deleteCheck = defineCommand({
  id: 'check.delete',
  title: 'Delete check',
  category: 'Checks',
  description: 'Remove a check with its results, uptime history and alerts.',
  input: z.object({ check: z.string().trim().min(1, 'check is required') }),
  args: [checkArg],
  permission: 'checks.write',
  // Resolved first, so a wrong name says "No check matches" before any question; the run deletes the check found.
  prepare: (input, ctx) => resolveCheck(ctx.api, input.check),
  destructive: {
    title: 'Delete check',
    message: (_input, found) => `Delete the check “${found.name}” with its results, 90-day uptime and alerts? This cannot be undone.`,
    confirmLabel: 'Delete',
  },
  async run(_input, ctx, found) {
    await deleteCheckCall(ctx.api, found._id);
    await ctx.invalidate(queryKeys.checks.all);
    return { message: `Deleted check **${found.name}** (${found.target}).`, data: found };
  },
});
