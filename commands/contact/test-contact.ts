import { z } from 'zod';
import { codeSpan, escapeMarkdown } from '../../server/contract/alert-text';
import { VERIFY_CODE_TTL_S } from '../../server/contract/contact-methods';
import { testContactMethod } from '../../src/api/contact-methods';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { commandError, methodArg, methodShape, personShape, resolveContact, resolvePerson, userArg } from './contact-fields';

/** Issue 27 §2: a test message with a verification code, through the method's own provider. */
export const testContactCommand = defineCommand({
  id: 'contact.test',
  title: 'Send test message to contact method',
  category: 'Account',
  description: `Sends a message with a ${Math.round(VERIFY_CODE_TTL_S / 60)}-minute verification code to one of your contact methods; enter it with contact.verify.`,
  input: z.object({ ...methodShape, ...personShape }).strict(),
  args: [methodArg, userArg],
  permission: 'read',
  async run({ method, user }, ctx) {
    const person = await resolvePerson(ctx, user);
    const found = await resolveContact(ctx.api, person, method);
    const { result } = await testContactMethod(ctx.api, person._id, found._id).catch(commandError);
    await ctx.invalidate(queryKeys.contactMethods.of(person._id));
    const label = escapeMarkdown(result.method.label);
    // The provider's refusal is others' text: shown as code, never markup; the run fails, so the history shows it.
    if (!result.ok) throw new CommandError(`The test message to **${label}** failed: ${codeSpan(result.error ?? 'failed')}`);
    return { message: `Sent a test message to **${label}** (${escapeMarkdown(result.target)}). Enter its code with \`contact.verify "${result.method.label}" <code>\` within ${Math.round(VERIFY_CODE_TTL_S / 60)} minutes.`, data: result };
  },
});
