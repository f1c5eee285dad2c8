import { z } from 'zod';
import { channelTypeLabels, type ChannelType, type ChannelUpdate, type NotificationChannel } from '../../server/contract/channels';
import { ApiError } from '../../src/api/client';
import { editGroupChannel, listGroupChannels } from '../../src/api/notification-groups';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { argFor, channelTargetArgs, channelTargetFields, parseHeaders } from './add-channel';
import { resolveGroup } from './resolve-group';
import { isUuid } from '../../server/contract/ids';

type FlatField = 'webhook' | 'signingSecret' | 'headers' | 'routingKey' | 'botToken' | 'chatId' | 'topic' | 'token' | 'endpoint' | 'priority';

/** Where each argument goes for each type: `secrets.x` or `settings.x` (add-channel's mapping, field by field). */
const PLACES: Record<ChannelType, Partial<Record<FlatField, string>>> = {
  webhook: { webhook: 'secrets.url', signingSecret: 'secrets.signingSecret', headers: 'secrets.headers' },
  teams: { webhook: 'secrets.url' },
  pagerduty: { routingKey: 'secrets.routingKey', endpoint: 'settings.eventsUrl' },
  telegram: { botToken: 'secrets.botToken', chatId: 'settings.chatId', endpoint: 'settings.apiUrl' },
  ntfy: { topic: 'secrets.topic', token: 'secrets.token', endpoint: 'settings.serverUrl', priority: 'settings.priority' },
};
/** Optional fields `--clear` may remove (required ones can only be replaced). */
const CLEARABLE = new Set(['secrets.signingSecret', 'secrets.headers', 'settings.eventsUrl', 'settings.apiUrl', 'settings.serverUrl', 'settings.priority', 'secrets.token']);

/**
 * The flat arguments as the API's update: only what was given. A secret left out (or empty) is
 * kept by the server, so the drawer's form, which never holds a stored secret, sends only what
 * was typed. Arguments that do not belong to the target's type are refused, naming them.
 */
export function channelUpdateBody(type: ChannelType, i: Partial<Record<FlatField, string | number>> & { name?: string; clear?: string }): ChannelUpdate {
  const settings: Record<string, string | number | null> = {};
  const secrets: Record<string, string | Record<string, string> | null> = {};
  const put = (place: string, value: string | number | Record<string, string> | null) => {
    const [part, key] = place.split('.') as ['settings' | 'secrets', string];
    if (part === 'settings') settings[key] = value as string | number | null;
    else secrets[key] = value as string | Record<string, string> | null;
  };
  for (const [arg, value] of Object.entries(i) as [string, string | number | undefined][]) {
    if (arg === 'name' || arg === 'clear' || value === undefined || value === '') continue;
    const place = PLACES[type][arg as FlatField];
    if (!place) throw new CommandError(`${arg}: does not apply to a ${channelTypeLabels[type]} channel`);
    put(place, arg === 'headers' ? parseHeaders(String(value)) : value);
  }
  for (const arg of (i.clear ?? '').split(/[\s,]+/).filter(Boolean)) {
    const place = PLACES[type][arg as FlatField];
    if (!place || !CLEARABLE.has(place)) throw new CommandError(`clear: ${arg} cannot be removed from a ${channelTypeLabels[type]} channel${place ? ' (it is required: give a new value instead)' : ''}`);
    put(place, null);
  }
  return {
    ...(i.name ? { name: i.name } : {}),
    ...(Object.keys(settings).length ? { settings } : {}),
    ...(Object.keys(secrets).length ? { secrets } : {}),
  };
}

async function findChannel(channels: NotificationChannel[], ref: string, group: string): Promise<NotificationChannel> {
  const found = isUuid(ref) ? channels.find((c) => c._id === ref) : channels.find((c) => c.name.toLowerCase() === ref.trim().toLowerCase());
  if (!found) throw new CommandError(`Notification group "${group}" has no channel "${ref}"`);
  return found;
}

export const editGroupChannel_ = defineCommand({
  id: 'group.edit-channel',
  title: 'Edit channel of notification group',
  category: 'Notification Groups',
  description:
    'Change a channel target in place: its name, address, settings or secrets. Secrets stay masked; a secret left out is kept. --clear removes optional fields (e.g. --clear signingSecret).',
  input: z
    .object({
      group: z.string().trim().min(1, 'group is required'),
      channel: z.string().trim().min(1, 'channel is required'),
      name: z.string().trim().max(100, 'name has at most 100 characters').optional(),
      ...channelTargetFields,
      clear: z.string().trim().optional(),
    })
    .strict(),
  args: [
    { name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true },
    { name: 'channel', label: 'Channel name', kind: 'text', positional: true },
    { name: 'name', label: 'New name', kind: 'text', optional: true },
    // The same target arguments as group.add-channel; new headers replace the stored ones.
    ...channelTargetArgs.map((a) => (a.name === 'headers' ? { ...a, label: `${a.label} — replaces all` } : a)),
    { name: 'clear', label: 'Remove optional fields (e.g. signingSecret, headers, endpoint)', kind: 'text', optional: true },
  ],
  permission: 'groups.write',
  async run({ group, channel, ...fields }, ctx) {
    const found = await resolveGroup(ctx.api, group);
    try {
      const target = await findChannel((await listGroupChannels(ctx.api, found._id)).result, channel, found.name);
      const body = channelUpdateBody(target.type, fields);
      if (!Object.keys(body).length) throw new CommandError(`Nothing to change on **${target.name}**: give a new name, address, setting or secret (secrets left out are kept).`);
      const { result } = await editGroupChannel(ctx.api, found._id, target._id, body);
      await ctx.invalidate(queryKeys.notificationGroups.channels(found._id));
      return { message: `Updated ${channelTypeLabels[result.type]} channel **${result.name}** of **${found.name}** (${result.target}).`, data: result };
    } catch (err) {
      // The server names the API field (secrets.url); the person typed an argument (webhook).
      if (err instanceof ApiError) throw new CommandError(err.field ? `${argFor(err.field)}: ${err.message.replace(/^[\w.-]+: /, '').replace(/^(secrets|settings)\.\w+ /, '')}` : err.message);
      throw err;
    }
  },
});
