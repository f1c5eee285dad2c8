import { z } from 'zod';
import { createDefaultAlertRules } from '../../src/api/alert-config';
import { ApiError } from '../../src/api/client';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveRulesServer, serverArg, serverField } from './rule-target';

/** SPEC §2 'Create Default Alert Rules' of the 'No Alert Config Found' view (SPEC §7 create-default-alert-rules). */
export const createDefaults = defineCommand({
  id: 'rules.create-defaults',
  title: 'Create default alert rules',
  category: 'Alert rules',
  description: 'Give a server without an alert config the default rules (CPU, memory, disk, instance down, service down).',
  input: z.object({ server: serverField }),
  args: [{ ...serverArg, positional: true }],
  permission: 'rules.write',
  async run(input, ctx) {
    const server = await resolveRulesServer(ctx, input.server);
    try {
      const { result } = await createDefaultAlertRules(ctx.api, server._id);
      await ctx.invalidate(queryKeys.alertConfig.server(server._id));
      return { message: `Created the default alert rules of **${server.hostname}** (${result.rules.length} rules).`, data: result };
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        await ctx.invalidate(queryKeys.alertConfig.server(server._id));
        throw new CommandError(`${server.hostname} already has an alert config; \`rules.reset --server ${server.hostname}\` puts it back to the defaults.`);
      }
      throw err;
    }
  },
});
