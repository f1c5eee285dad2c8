import { z } from 'zod';
import { escapeMarkdown } from '../../server/contract/alert-text';
import { removeNotificationRule } from '../../src/api/contact-methods';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { commandError, methodArg, methodShape, personShape, resolvePerson, userArg, whose } from './contact-fields';
import { afterArg, afterShape, resolveRule, whenText } from './rule-fields';

/** Issue 27 §2: one step of a person's notification rules fewer, named by its method and delay. */
export const removeRuleCommand = defineCommand({
  id: 'contact.rule-remove',
  title: 'Remove notification rule',
  category: 'Account',
  input: z.object({ ...methodShape, ...afterShape, ...personShape }).strict(),
  args: [methodArg, { ...afterArg, label: 'Its delay in minutes, when the method has several steps' }, userArg],
  permission: 'read',
  async run({ method, after, user }, ctx) {
    const person = await resolvePerson(ctx, user);
    const rule = await resolveRule(ctx.api, person, method, after);
    const { result } = await removeNotificationRule(ctx.api, person._id, rule._id!).catch(commandError);
    await ctx.invalidate(queryKeys.notificationRules.of(person._id));
    return { message: `Removed from ${whose(ctx, person)} notification rules: **${escapeMarkdown(result.method.label)}** ${whenText(result.afterMinutes)}.`, data: result };
  },
});
