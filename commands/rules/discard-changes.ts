import { z } from 'zod';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { openServerView } from '../server-view/current-view';
import { draftKey, getDraft, isDirty } from './rule-draft';

const NOTHING = 'No rule edits are held on this screen.';

/** Drops the edits held on the open Alerts Configuration tab, back to what the server has. */
export const discardChanges = defineCommand({
  id: 'rules.discard-changes',
  title: 'Discard alert rule changes',
  category: 'Alert rules',
  input: z.object({}).strict(),
  permission: 'rules.write',
  enabled: (ctx) => {
    const open = openServerView(ctx);
    return open && isDirty(getDraft(ctx.drafts, open.serverId)) ? true : NOTHING;
  },
  history: false,
  run(_input, ctx) {
    const open = openServerView(ctx);
    const draft = open ? getDraft(ctx.drafts, open.serverId) : undefined;
    if (!draft || !isDirty(draft)) throw new CommandError(NOTHING);
    ctx.drafts!.set(draftKey(draft.serverId), { ...draft, edits: {} });
    return { message: `Discarded the unsaved rule changes of **${draft.hostname}**.` };
  },
});
