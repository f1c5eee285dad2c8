import { z } from 'zod';
import { contactKindLabels } from '../../server/contract/contact-methods';
import { listContactMethods } from '../../src/api/contact-methods';
import { defineCommand } from '../define-command';
import { commandError, personShape, resolvePerson, userArg, whose } from './contact-fields';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** Issue 27 §2: your contact methods (or, for an admin, anyone's), with whether each is verified. */
export const listContactsCommand = defineCommand({
  id: 'contact.list',
  title: 'List contact methods',
  category: 'Account',
  input: z.object({ ...personShape }).strict(),
  args: [userArg],
  permission: 'read',
  history: false,
  async run({ user }, ctx) {
    const person = await resolvePerson(ctx, user);
    const { result } = await listContactMethods(ctx.api, person._id).catch(commandError);
    if (!result.data.length) return { message: `No contact methods on ${whose(ctx, person)} account yet. Add one with \`contact.add sms Mobile --to +15550100123\`.`, data: [] };
    const rows = result.data.map((m) => `| ${cell(m.label)} | ${contactKindLabels[m.kind]} | ${cell(m.target)} | ${m.verified ? 'verified' : 'not verified'} |`);
    return { message: ['| Label | Kind | Where | State |', '| --- | --- | --- | --- |', ...rows].join('\n'), data: result.data };
  },
});
