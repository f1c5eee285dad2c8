import { z } from 'zod';
import { updateAlertConfig } from '../../src/api/alert-config';
import { queryKeys } from '../../src/api/query-keys';
import type { CommandContext } from '../define-command';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { openServerView } from '../server-view/current-view';
import { changedRuleIds, draftKey, getDraft, isDirty, updateBody, type RuleDraft } from './rule-draft';

const NOTHING_HELD = 'No rule edits are held: change rules on a server’s Alerts Configuration tab first (elsewhere rules.* commands save at once).';

function heldDraft(ctx: CommandContext): RuleDraft | undefined {
  const open = openServerView(ctx);
  return open ? getDraft(ctx.drafts, open.serverId) : undefined;
}

/**
 * The tab's Update button (SPEC §2, disabled until something changed): sends the held edits of
 * the open Alerts Configuration tab as the full config (SPEC §7 update-alert-config).
 */
export const saveRules = defineCommand({
  id: 'rules.save',
  title: 'Save alert rule changes',
  category: 'Alert rules',
  description: 'Send the edits held on the open Alerts Configuration tab (its Update button).',
  input: z.object({}).strict(),
  permission: 'rules.write',
  enabled: (ctx) => (isDirty(heldDraft(ctx)) ? true : NOTHING_HELD),
  async run(_input, ctx) {
    const draft = heldDraft(ctx);
    if (!draft || !isDirty(draft)) throw new CommandError(NOTHING_HELD);
    const changed = changedRuleIds(draft).length;
    const saved = (await updateAlertConfig(ctx.api, draft.base._id, updateBody(draft))).result;
    // The tab may have closed while the call ran; only a draft still open takes the new base.
    if (getDraft(ctx.drafts, draft.serverId)) ctx.drafts!.set(draftKey(draft.serverId), { ...draft, base: saved, edits: {} } satisfies RuleDraft);
    await ctx.invalidate(queryKeys.alertConfig.server(draft.serverId));
    return { message: `Saved ${changed} changed rule${changed === 1 ? '' : 's'} of **${draft.hostname}**.`, data: saved };
  },
});
