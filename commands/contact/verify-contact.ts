import { z } from 'zod';
import { escapeMarkdown } from '../../server/contract/alert-text';
import { verifyContactMethod } from '../../src/api/contact-methods';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { commandError, methodArg, methodShape, personShape, resolveContact, resolvePerson, userArg } from './contact-fields';

/** Issue 27 §2: the code of the test message; a right one marks the method verified, a wrong or expired one changes nothing. */
export const verifyContactCommand = defineCommand({
  id: 'contact.verify',
  title: 'Verify contact method',
  category: 'Account',
  description: 'Enter the code of the test message a contact method got (contact.test): the method is verified.',
  input: z.object({ ...methodShape, code: z.string().trim().min(1, 'code is required'), ...personShape }).strict(),
  args: [methodArg, { name: 'code', label: 'Code from the test message', kind: 'text', positional: true, placeholder: '6 digits' }, userArg],
  permission: 'read',
  async run({ method, code, user }, ctx) {
    const person = await resolvePerson(ctx, user);
    const found = await resolveContact(ctx.api, person, method);
    const { result } = await verifyContactMethod(ctx.api, person._id, found._id, code).catch(commandError);
    await ctx.invalidate(queryKeys.contactMethods.of(person._id));
    // Its steps go with a removed method; a newly verified one joins the default steps.
    await ctx.invalidate(queryKeys.notificationRules.of(person._id));
    return { message: `**${escapeMarkdown(result.label)}** is verified.`, data: result };
  },
});
