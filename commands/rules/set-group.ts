import { z } from 'zod';
import { MAX_TEXT } from '../../server/contract/common';
import { defineCommand } from '../define-command';
import { editRule, undoRuleEdit, resolveGroup, ruleArg, ruleField, serverArg, serverField } from './rule-target';

/**
 * The Notification Group column: who hears about the rule's alerts. A group by name or id;
 * "none" clears it (a rule without a group sends nothing).
 */
export const setGroup = defineCommand({
  id: 'rules.set-group',
  title: 'Set alert rule notification group',
  category: 'Alert rules',
  description: 'e.g. `rules.set-group "high cpu usage" "On call" --server web-01`; `none` clears it.',
  input: z.object({ rule: ruleField, group: z.string({ error: 'group is required (a name, an id or none)' }).trim().min(1, 'group is required (a name, an id or none)').max(MAX_TEXT), server: serverField }),
  args: [ruleArg, { name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true, placeholder: 'Group name, or none' }, serverArg],
  permission: 'rules.write',
  inverse: (_input, result) => undoRuleEdit(result, 'notificationGroup'),
  async run(input, ctx) {
    let name = 'none';
    return editRule(
      ctx,
      input,
      async () => {
        const group = await resolveGroup(ctx, input.group);
        name = group?.name ?? 'none';
        return { notificationGroup: group?._id ?? null };
      },
      (r) => (r.notificationGroup ? `notification group **${name}**` : 'no notification group'),
    );
  },
});
