import { z } from 'zod';
import { escapeMarkdown } from '../../server/contract/alert-text';
import { contactKindLabels } from '../../server/contract/contact-methods';
import { removeContactMethod } from '../../src/api/contact-methods';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { commandError, methodArg, methodShape, personShape, resolveContact, resolvePerson, userArg } from './contact-fields';

/** Issue 27 §2: one contact method fewer; its secrets are deleted with it. */
export const removeContactCommand = defineCommand({
  id: 'contact.remove',
  title: 'Remove contact method',
  category: 'Account',
  input: z.object({ ...methodShape, ...personShape }).strict(),
  args: [methodArg, userArg],
  permission: 'read',
  // Found before asking, so the question names it; the run removes the method found.
  prepare: async ({ method, user }, ctx) => {
    const person = await resolvePerson(ctx, user);
    return { person, found: await resolveContact(ctx.api, person, method) };
  },
  destructive: { title: 'Remove contact method', message: (_input, { found }) => `Remove the ${contactKindLabels[found.kind]} contact method “${found.label}”? Adding it back needs it verified again.`, confirmLabel: 'Remove' },
  async run(_input, ctx, { person, found }) {
    const { result } = await removeContactMethod(ctx.api, person._id, found._id).catch(commandError);
    await ctx.invalidate(queryKeys.contactMethods.of(person._id));
    // Its steps go with a removed method; a newly verified one joins the default steps.
    await ctx.invalidate(queryKeys.notificationRules.of(person._id));
    return { message: `Removed contact method **${escapeMarkdown(result.label)}**.`, data: result };
  },
});
