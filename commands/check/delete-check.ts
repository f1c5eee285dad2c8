import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { deleteCheck as deleteCheckCall } from '../../src/api/checks';
import type { Check } from '../../server/contract/checks';
import { defineCommand } from '../define-command';
import { checkArg, resolveCheck } from './check-fields';

export const deleteCheck = defineCommand({
  id: 'check.delete',
  title: 'Delete check',
  category: 'Checks',
  description: 'Remove a check with its results, uptime history and alerts.',
  // `label`: the name `prepare` found, for the question (the gate passes the resolved id on).
  input: z.object({ check: z.string().trim().min(1, 'check is required'), label: z.string().optional() }),
  args: [checkArg],
  permission: 'checks.write',
  // Resolved first, so a wrong name says "No check matches" before any question.
  prepare: async (input, ctx) => {
    const found = await resolveCheck(ctx.api, input.check);
    return { check: found._id, label: found.name };
  },
  destructive: {
    title: 'Delete check',
    message: ({ check, label }) => `Delete the check “${label ?? check}” with its results, 90-day uptime and alerts? This cannot be undone.`,
    confirmLabel: 'Delete',
  },
  async run({ check }, ctx) {
    const found: Check = await resolveCheck(ctx.api, check);
    await deleteCheckCall(ctx.api, found._id);
    await ctx.invalidate(queryKeys.checks.all);
    return { message: `Deleted check **${found.name}** (${found.target}).`, data: found };
  },
});
