import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { updateCheck } from '../../src/api/checks';
import { defineCommand } from '../define-command';
import { checkArg, resolveCheck } from './check-fields';

const pauseInput = z.object({ check: z.string().trim().min(1, 'check is required') });

/** Pausing stops the runs and resolves the check's open alerts; resuming runs it at once. */
function pauseCommand(paused: boolean) {
  return defineCommand({
    id: paused ? 'check.pause' : 'check.resume',
    title: paused ? 'Pause check' : 'Resume check',
    category: 'Checks',
    description: paused ? 'Stop running a check (its open alerts resolve) until it is resumed.' : 'Run a paused check again at its interval, starting now.',
    input: pauseInput,
    args: [checkArg],
    permission: 'checks.write',
    // Only a run that changed the check has something to undo.
    inverse: ({ check }, result) => (result.before === paused ? null : { id: paused ? 'check.resume' : 'check.pause', input: { check } }),
    async run({ check }, ctx) {
      const found = await resolveCheck(ctx.api, check);
      if (found.paused === paused) return { message: `**${found.name}** is already ${paused ? 'paused' : 'running'}.`, data: found, before: found.paused };
      const { result } = await updateCheck(ctx.api, found._id, { paused });
      await ctx.invalidate(queryKeys.checks.all);
      return { message: paused ? `Paused **${result.name}**.` : `Resumed **${result.name}**: it runs now and every ${result.intervalSeconds} s.`, data: result, before: found.paused };
    },
  });
}

export const pauseCheck = pauseCommand(true);
export const resumeCheck = pauseCommand(false);
