import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { runCheckNow } from '../../src/api/checks';
import { defineCommand } from '../define-command';
import { checkArg, checkSummary, resolveCheck } from './check-fields';

export const runCheck = defineCommand({
  id: 'check.run-now',
  title: 'Run check now',
  category: 'Checks',
  description: 'Run a check once now (a paused one too) and show what it found.',
  input: z.object({ check: z.string().trim().min(1, 'check is required') }),
  args: [checkArg],
  permission: 'checks.write',
  async run({ check }, ctx) {
    const found = await resolveCheck(ctx.api, check);
    const { result, run } = await runCheckNow(ctx.api, found._id);
    await ctx.invalidate(queryKeys.checks.all);
    const what = run.up ? 'up' : 'down';
    return { message: `**${result.name}** is ${what}: ${checkSummary({ ...result, state: what, lastError: run.error })}.`, data: { check: result, run } };
  },
});
