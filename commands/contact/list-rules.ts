import { z } from 'zod';
import { contactKindLabels } from '../../server/contract/contact-methods';
import { listNotificationRules } from '../../src/api/contact-methods';
import { defineCommand } from '../define-command';
import { commandError, personShape, resolvePerson, userArg, whose } from './contact-fields';
import { whenText } from './rule-fields';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** Issue 27 §2: the steps a person is paged in, in order; the default when they set none. */
export const listRulesCommand = defineCommand({
  id: 'contact.rules',
  title: 'List notification rules',
  category: 'Account',
  input: z.object({ ...personShape }).strict(),
  args: [userArg],
  permission: 'read',
  history: false,
  async run({ user }, ctx) {
    const person = await resolvePerson(ctx, user);
    const { result } = await listNotificationRules(ctx.api, person._id).catch(commandError);
    if (!result.data.length) return { message: `No verified contact methods on ${whose(ctx, person)} account, so a page reaches nobody. Add one with \`contact.add\` and verify it.`, data: result };
    const rows = result.data.map((r) => `| ${whenText(r.afterMinutes)} | ${cell(r.method.label)} | ${contactKindLabels[r.method.kind]} | ${r.method.verified ? 'verified' : 'not verified: skipped'} |`);
    const head = result.isDefault ? `No notification rules set on ${whose(ctx, person)} account: each verified contact method is paged at once. Add steps with \`contact.rule-add <method> --after <minutes>\`.\n\n` : '';
    return { message: [`${head}| When | Method | Kind | State |`, '| --- | --- | --- | --- |', ...rows].join('\n'), data: result };
  },
});
