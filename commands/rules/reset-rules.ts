import { z } from 'zod';
import { resetAlertRules } from '../../src/api/alert-config';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { draftKey, getDraft, type RuleDraft } from './rule-draft';
import { fetchConfig, resolveRulesServer, serverArg, serverField } from './rule-target';

/** What prepare adds to the input so the confirmation can name the server. */
type Prepared = { server?: string; hostname?: string; configId?: string };

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
  prepare: async (input, ctx) => {
    const server = await resolveRulesServer(ctx, input.server);
    const config = await fetchConfig(ctx, server);
    return { ...input, server: server._id, hostname: server.hostname, configId: config._id } as typeof input;
  },
  destructive: {
    title: 'Reset To Default',
    message: (input) => {
      const p = input as Prepared;
      return `Reset the alert rules of ${p.hostname ?? 'this server'} to the defaults? Every change to its rules is discarded and their notification groups are cleared.`;
    },
    confirmLabel: 'Reset',
    cancelLabel: 'Cancel',
  },
  async run(input, ctx) {
    const p = input as Prepared;
    const server = p.configId && p.server && p.hostname ? { _id: p.server, hostname: p.hostname } : await resolveRulesServer(ctx, input.server);
    const configId = p.configId ?? (await fetchConfig(ctx, server))._id;
    const saved = (await resetAlertRules(ctx.api, configId)).result;
    const draft = getDraft(ctx.drafts, server._id);
    if (draft) ctx.drafts!.set(draftKey(server._id), { ...draft, base: saved, edits: {} } satisfies RuleDraft);
    await ctx.invalidate(queryKeys.alertConfig.server(server._id));
    return { message: `The alert rules of **${server.hostname}** are back to the defaults.`, data: saved };
  },
});
