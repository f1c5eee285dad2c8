import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { resolveRulesServer, serverArg, serverField } from './rule-target';

/** The tab's refresh button: fetch the server's rules again. Held edits stay on top (docs/decisions.md). */
export const refreshRules = defineCommand({
  id: 'rules.refresh',
  title: 'Refresh alert rules',
  category: 'Alert rules',
  input: z.object({ server: serverField }),
  args: [{ ...serverArg, positional: true }],
  permission: 'read',
  history: false,
  async run(input, ctx) {
    const server = await resolveRulesServer(ctx, input.server);
    await ctx.invalidate(queryKeys.alertConfig.server(server._id));
    return {};
  },
});
