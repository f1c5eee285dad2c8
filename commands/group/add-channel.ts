import { z } from 'zod';
import { channelInputSchema, channelTypeLabels, channelTypes, type ChannelInput, type ChannelType } from '../../server/contract/channels';
import { ApiError } from '../../src/api/client';
import { addGroupChannel } from '../../src/api/notification-groups';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand, type ArgSpec } from '../define-command';
import { CommandError } from '../registry';
import { resolveGroup } from './resolve-group';

/** "X-Api-Key: abc; X-Team: ops" → {X-Api-Key: 'abc', X-Team: 'ops'}. */
export function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(/[;\n]/)) {
    if (!part.trim()) continue;
    const at = part.indexOf(':');
    if (at <= 0) throw new CommandError(`headers: "${part.trim()}" is not "Name: value"`);
    out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return out;
}

/** The command's flat arguments as the API's {type, name, settings, secrets}, per type. */
export function channelBody(i: { type: ChannelType; name: string; webhook?: string; signingSecret?: string; headers?: string; routingKey?: string; botToken?: string; chatId?: string; topic?: string; token?: string; endpoint?: string; priority?: number }): ChannelInput {
  const endpoint = i.endpoint || undefined;
  switch (i.type) {
    case 'webhook':
      return { type: 'webhook', name: i.name, secrets: { url: i.webhook ?? '', ...(i.signingSecret ? { signingSecret: i.signingSecret } : {}), ...(i.headers ? { headers: parseHeaders(i.headers) } : {}) } };
    case 'teams':
      return { type: 'teams', name: i.name, secrets: { url: i.webhook ?? '' } };
    case 'pagerduty':
      return { type: 'pagerduty', name: i.name, settings: endpoint ? { eventsUrl: endpoint } : {}, secrets: { routingKey: i.routingKey ?? '' } };
    case 'telegram':
      return { type: 'telegram', name: i.name, settings: { chatId: i.chatId ?? '', ...(endpoint ? { apiUrl: endpoint } : {}) }, secrets: { botToken: i.botToken ?? '' } };
    case 'ntfy':
      return { type: 'ntfy', name: i.name, settings: { ...(endpoint ? { serverUrl: endpoint } : {}), ...(i.priority ? { priority: i.priority } : {}) }, secrets: { topic: i.topic ?? '', ...(i.token ? { token: i.token } : {}) } };
  }
}

/** The target's flat arguments, one per setting or secret: group.add-channel and group.edit-channel take the same. */
export const channelTargetFields = {
  webhook: z.string().trim().optional(),
  signingSecret: z.string().optional(),
  headers: z.string().optional(),
  routingKey: z.string().trim().optional(),
  botToken: z.string().trim().optional(),
  chatId: z.string().trim().optional(),
  topic: z.string().trim().optional(),
  token: z.string().trim().optional(),
  endpoint: z.string().trim().optional(),
  priority: z.coerce.number().int().min(1, 'priority must be 1 to 5').max(5, 'priority must be 1 to 5').optional(),
};
export const channelTargetArgs: readonly ArgSpec<keyof typeof channelTargetFields>[] = [
  { name: 'webhook', label: 'Webhook URL (webhook, Teams)', kind: 'password', optional: true },
  { name: 'signingSecret', label: 'Signing secret (webhook)', kind: 'password', optional: true },
  { name: 'headers', label: 'Custom headers (webhook), "Name: value; …"', kind: 'password', optional: true },
  { name: 'routingKey', label: 'Routing key (PagerDuty)', kind: 'password', optional: true },
  { name: 'botToken', label: 'Bot token (Telegram)', kind: 'password', optional: true },
  { name: 'chatId', label: 'Chat id (Telegram)', kind: 'text', optional: true, placeholder: '-1001234567890 or @channel' },
  { name: 'topic', label: 'Topic (ntfy)', kind: 'password', optional: true },
  { name: 'token', label: 'Access token (ntfy, optional)', kind: 'password', optional: true },
  { name: 'endpoint', label: 'Server or API URL (PagerDuty region, Telegram API, ntfy server)', kind: 'text', optional: true },
  { name: 'priority', label: 'Priority 1–5 (ntfy)', kind: 'number', optional: true },
];

/** Which argument holds each API field, so a refusal names what the person typed. */
const ARG_OF: Record<string, string> = {
  'secrets.url': 'webhook',
  'secrets.signingSecret': 'signingSecret',
  'secrets.routingKey': 'routingKey',
  'secrets.botToken': 'botToken',
  'secrets.topic': 'topic',
  'secrets.token': 'token',
  'settings.chatId': 'chatId',
  'settings.eventsUrl': 'endpoint',
  'settings.apiUrl': 'endpoint',
  'settings.serverUrl': 'endpoint',
  'settings.priority': 'priority',
};
export const argFor = (field: string) => ARG_OF[field] ?? (field.startsWith('secrets.headers') ? 'headers' : field);

export const addGroupChannel_ = defineCommand({
  id: 'group.add-channel',
  title: 'Add channel to notification group',
  category: 'Notification Groups',
  description:
    'Send a group’s alerts to a webhook (Alertmanager’s payload), Microsoft Teams, PagerDuty, Telegram or ntfy too. Secrets (webhook URLs, keys, tokens, the ntfy topic) are stored encrypted and shown masked.',
  input: z
    .object({
      group: z.string().trim().min(1, 'group is required'),
      type: z.enum(channelTypes, { error: `type must be one of ${channelTypes.join(', ')}` }),
      name: z.string().trim().min(1, 'name is required').max(100),
      ...channelTargetFields,
    })
    .strict(),
  args: [
    { name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true },
    { name: 'type', label: 'Channel type', kind: 'enum', options: channelTypes.map((t) => ({ value: t, label: channelTypeLabels[t] })), positional: true },
    { name: 'name', label: 'Channel name', kind: 'text', positional: true, placeholder: 'e.g. on-call pager' },
    ...channelTargetArgs,
  ],
  permission: 'groups.write',
  // Undo removes the target this run added.
  inverse: (_input, result) => {
    const data = result.data as { _id?: string; groupId?: string } | undefined;
    return data?._id && data.groupId ? { id: 'group.remove-channel', input: { group: data.groupId, channel: data._id } } : null;
  },
  async run(input, ctx) {
    const found = await resolveGroup(ctx.api, input.group);
    const body = channelBody(input);
    // The same checks the server makes, first: a refusal names the argument and sends nothing.
    const parsed = channelInputSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.map(String).join('.');
      throw new CommandError(`${argFor(field)}: ${issue.message.replace(/^(secrets|settings)\.\w+ /, '')}`);
    }
    try {
      const { result } = await addGroupChannel(ctx.api, found._id, body);
      await ctx.invalidate(queryKeys.notificationGroups.channels(found._id));
      // A group that could not send may reach someone now (the dashboard's reach notice).
      await ctx.invalidate(queryKeys.alertReach);
      return { message: `Added ${channelTypeLabels[result.type]} channel **${result.name}** to **${found.name}** (${result.target}). Try it with \`group.test "${found.name}" --channel "${result.name}"\`.`, data: result };
    } catch (err) {
      if (err instanceof ApiError) throw new CommandError(err.message);
      throw err;
    }
  },
});
