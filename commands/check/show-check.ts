import { z } from 'zod';
import { defineCommand } from '../define-command';
import { checkArg, checkSummary, resolveCheck } from './check-fields';

export const showCheck = defineCommand({
  id: 'check.show',
  title: 'Show check',
  category: 'Checks',
  description: 'Open a check’s detail: its latency chart, 90-day uptime, last results and rules.',
  input: z.object({ check: z.string().trim().min(1, 'check is required') }),
  args: [checkArg],
  permission: 'read',
  history: false,
  async run({ check }, ctx) {
    const found = await resolveCheck(ctx.api, check);
    ctx.navigate(`/checks/show/${found._id}`);
    return { message: `Opened **${found.name}** (${checkSummary(found)}).`, data: found };
  },
});
