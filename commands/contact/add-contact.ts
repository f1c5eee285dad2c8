import { z } from 'zod';
import { escapeMarkdown } from '../../server/contract/alert-text';
import { contactKindLabels, contactKinds, contactMethodInputSchema, type ContactKind, type ContactMethodInput } from '../../server/contract/contact-methods';
import { addContactMethod } from '../../src/api/contact-methods';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand, type ArgSpec } from '../define-command';
import { CommandError } from '../registry';
import { commandError, personShape, resolvePerson, userArg, whose } from './contact-fields';

/** The flat arguments of the command line as the API's {kind, label, settings, secrets}. */
export function contactBody(i: { kind: ContactKind; label: string; to?: string; key?: string; token?: string; endpoint?: string; device?: string }): ContactMethodInput {
  const { kind, label } = i;
  const to = i.to ?? '';
  const key = i.key ?? '';
  const endpoint = i.endpoint || undefined;
  switch (kind) {
    case 'email':
      return { kind, label, settings: { address: to } };
    case 'ntfy':
      return { kind, label, settings: endpoint ? { serverUrl: endpoint } : {}, secrets: { topic: key, ...(i.token ? { token: i.token } : {}) } };
    case 'telegram':
      return { kind, label, settings: { chatId: to, ...(endpoint ? { apiUrl: endpoint } : {}) }, secrets: { botToken: key } };
    case 'slack':
      return { kind, label, settings: { memberId: to } };
    case 'pushover':
      return { kind, label, settings: i.device ? { device: i.device } : {}, secrets: { userKey: key } };
    case 'webhook':
      return { kind, label, secrets: { url: key } };
    case 'sms':
    case 'voice':
      return { kind, label, settings: { phone: to } };
  }
}

/** Which argument holds each API field, so a refusal names what the person typed. */
const ARG_OF: Record<string, string> = {
  'settings.address': 'to',
  'settings.phone': 'to',
  'settings.memberId': 'to',
  'settings.chatId': 'to',
  'secrets.topic': 'key',
  'secrets.botToken': 'key',
  'secrets.userKey': 'key',
  'secrets.url': 'key',
  'secrets.token': 'token',
  'settings.serverUrl': 'endpoint',
  'settings.apiUrl': 'endpoint',
  'settings.device': 'device',
};

const contactFields = {
  to: z.string().trim().optional(),
  key: z.string().trim().optional(),
  token: z.string().trim().optional(),
  endpoint: z.string().trim().optional(),
  device: z.string().trim().optional(),
};
const contactArgs: readonly ArgSpec<keyof typeof contactFields>[] = [
  { name: 'to', label: 'Address: email, phone number (+15550100123), Slack member id or Telegram chat id', kind: 'text', optional: true },
  { name: 'key', label: 'Secret: ntfy topic, Pushover user key, Telegram bot token or webhook URL', kind: 'password', optional: true },
  { name: 'token', label: 'Access token (ntfy, optional)', kind: 'password', optional: true },
  { name: 'endpoint', label: 'Server or API URL (your ntfy server, Telegram API)', kind: 'text', optional: true },
  { name: 'device', label: 'Device (Pushover, optional)', kind: 'text', optional: true },
];

/** Issue 27 §2: one more place you are reached when paged; unverified until its test message's code is entered. */
export const addContactCommand = defineCommand({
  id: 'contact.add',
  title: 'Add contact method',
  category: 'Account',
  description: 'A place you are paged: email, ntfy, Telegram, Slack, Pushover, a webhook, SMS or a voice call. Verify it with contact.test and contact.verify.',
  input: z
    .object({
      kind: z.enum(contactKinds, { error: `kind must be one of ${contactKinds.join(', ')}` }),
      label: z.string().trim().min(1, 'label is required').max(100, 'label has at most 100 characters'),
      ...contactFields,
      ...personShape,
    })
    .strict(),
  args: [
    { name: 'kind', label: 'Kind', kind: 'enum', options: contactKinds.map((k) => ({ value: k, label: contactKindLabels[k] })), positional: true },
    { name: 'label', label: 'Label', kind: 'text', positional: true, placeholder: 'e.g. Mobile' },
    ...contactArgs,
    userArg,
  ],
  permission: 'read',
  // Undo removes the method this run added, named by its label.
  inverse: (input, result) => {
    const data = result.data as { label?: string } | undefined;
    return data?.label ? { id: 'contact.remove', input: { method: data.label, ...(input.user ? { user: input.user } : {}) } } : null;
  },
  async run(input, ctx) {
    const person = await resolvePerson(ctx, input.user);
    const body = contactBody(input);
    // The server's checks first: a refusal names the argument and sends nothing.
    const parsed = contactMethodInputSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.map(String).join('.');
      throw new CommandError(`${ARG_OF[field] ?? field}: ${issue.message.replace(/^(secrets|settings)\.\w+ /, '')}`);
    }
    const { result } = await addContactMethod(ctx.api, person._id, body).catch(commandError);
    await ctx.invalidate(queryKeys.contactMethods.of(person._id));
    const label = escapeMarkdown(result.label);
    return { message: `Added ${contactKindLabels[result.kind]} contact method **${label}** to ${whose(ctx, person)} account (${escapeMarkdown(result.target)}), not verified yet: send it a code with \`contact.test "${result.label}"\`.`, data: result };
  },
});
