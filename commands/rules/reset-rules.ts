import { z } from 'zod';
import { resetAlertRules } from '../../src/api/alert-config';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { draftKey, getDraft, type RuleDraft } from './rule-draft';
import { fetchConfig, resolveRulesServer, serverArg, serverField } from './rule-target';

/**
 * SPEC §2 'Reset To Default': the server's rules go back to the default set (docs/alerting.md):
 * every threshold, grace period, severity and enabled flag, and the groups are cleared. Edits
 * held on the tab are discarded too. Destructive: it asks first.
 */
export const resetRules = defineCommand({
  id: 'rules.reset',
  title: 'Reset alert rules to default',
  category: 'Alert rules',
  description: 'Put a server’s alert rules back to the defaults, discarding every change (and their notification groups).',
  input: z.object({ server: serverField }),
  args: [{ ...serverArg, positional: true }],
  permission: 'rules.write',
  // The server and its rules are found before asking, so the question names the server; the run resets them.
  prepare: async (input, ctx) => {
    const server = await resolveRulesServer(ctx, input.server);
    const config = await fetchConfig(ctx, server);
    return { server, configId: config._id };
  },
  destructive: {
    title: 'Reset To Default',
    message: (_input, { server }) => `Reset the alert rules of ${server.hostname} to the defaults? Every change to its rules is discarded and their notification groups are cleared.`,
    confirmLabel: 'Reset',
    cancelLabel: 'Cancel',
  },
  async run(_input, ctx, { server, configId }) {
    const saved = (await resetAlertRules(ctx.api, configId)).result;
    const draft = getDraft(ctx.drafts, server._id);
    if (draft) ctx.drafts!.set(draftKey(server._id), { ...draft, base: saved, edits: {} } satisfies RuleDraft);
    await ctx.invalidate(queryKeys.alertConfig.server(server._id));
    return { message: `The alert rules of **${server.hostname}** are back to the defaults.`, data: saved };
  },
});
