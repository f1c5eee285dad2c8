import { z } from 'zod';
import { escapeMarkdown } from '../../server/contract/alert-text';
import { addNotificationRule } from '../../src/api/contact-methods';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { commandError, methodArg, methodShape, personShape, resolvePerson, userArg, whose } from './contact-fields';
import { afterArg, afterShape, whenText } from './rule-fields';

/** Issue 27 §2: one more step of a person's notification rules — "after 5 minutes unacknowledged: SMS". */
export const addRuleCommand = defineCommand({
  id: 'contact.rule-add',
  title: 'Add notification rule',
  category: 'Account',
  description: 'A step of how you are paged while an alert stays unacknowledged: a verified contact method, at once or after some minutes (e.g. at once ntfy, after 5 SMS, after 10 voice).',
  input: z.object({ ...methodShape, ...afterShape, ...personShape }).strict(),
  args: [methodArg, afterArg, userArg],
  permission: 'read',
  // Undo removes the step this run added.
  inverse: (input, result) => {
    const data = result.data as { method?: { label?: string }; afterMinutes?: number } | undefined;
    return data?.method?.label ? { id: 'contact.rule-remove', input: { method: data.method.label, after: data.afterMinutes ?? 0, ...(input.user ? { user: input.user } : {}) } } : null;
  },
  async run({ method, after, user }, ctx) {
    const person = await resolvePerson(ctx, user);
    const { result } = await addNotificationRule(ctx.api, person._id, { method, afterMinutes: after ?? 0 }).catch(commandError);
    await ctx.invalidate(queryKeys.notificationRules.of(person._id));
    return { message: `Added to ${whose(ctx, person)} notification rules: **${escapeMarkdown(result.method.label)}** ${whenText(result.afterMinutes)}.`, data: result };
  },
});
