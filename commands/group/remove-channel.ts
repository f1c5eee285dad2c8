import { z } from 'zod';
import { channelTypeLabels } from '../../server/contract/channels';
import { ApiError } from '../../src/api/client';
import { removeGroupChannel } from '../../src/api/notification-groups';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveGroup } from './resolve-group';

export const removeGroupChannel_ = defineCommand({
  id: 'group.remove-channel',
  title: 'Remove channel from notification group',
  category: 'Notification Groups',
  description: 'Stop sending a group’s alerts to one of its channels (named or by id); its secrets are deleted with it.',
  input: z.object({ group: z.string().trim().min(1, 'group is required'), channel: z.string().trim().min(1, 'channel is required') }).strict(),
  args: [
    { name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true },
    { name: 'channel', label: 'Channel name', kind: 'text', positional: true },
  ],
  permission: 'groups.write',
  // The group is found before asking; the run removes the channel from the group found.
  prepare: ({ group }, ctx) => resolveGroup(ctx.api, group),
  destructive: { title: 'Remove Channel', message: (i) => `Remove channel "${i.channel}"? Its secrets are deleted; adding it back needs them again.`, confirmLabel: 'Remove', cancelLabel: 'Cancel' },
  async run({ channel }, ctx, found) {
    try {
      const { result } = await removeGroupChannel(ctx.api, found._id, channel);
      await ctx.invalidate(queryKeys.notificationGroups.channels(found._id));
      return { message: `Removed ${channelTypeLabels[result.type]} channel **${result.name}** from **${found.name}**.`, data: result };
    } catch (err) {
      if (err instanceof ApiError) throw new CommandError(err.message);
      throw err;
    }
  },
});
