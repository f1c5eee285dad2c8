import { z } from 'zod';
import { deleteNotificationGroup } from '../../src/api/notification-groups';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { resolveGroup } from './resolve-group';

export const deleteGroup = defineCommand({
  id: 'group.delete',
  title: 'Delete notification group',
  category: 'Notification Groups',
  description: 'Remove a group; alert rules that notified it notify nobody until another group is chosen.',
  input: z.object({ group: z.string().trim().min(1, 'group is required') }).strict(),
  args: [{ name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true }],
  permission: 'groups.write',
  // Resolve first, so a typo answers "No group matches" instead of asking; the run deletes the group found.
  prepare: ({ group }, ctx) => resolveGroup(ctx.api, group),
  // SPEC §2 Notification groups: the confirmation's texts, with a danger button 'Delete'.
  // The confirmation names the group it would delete (issue 13), below SPEC's question.
  destructive: {
    title: 'Delete Notification Group',
    message: () => 'Are you sure you want to delete the group?',
    target: (_input, found) => `${found.name} · ${found.emailList.length} email${found.emailList.length === 1 ? '' : 's'}`,
    confirmLabel: 'Delete',
    cancelLabel: 'Cancel',
  },
  async run(_input, ctx, found) {
    await deleteNotificationGroup(ctx.api, found._id);
    await ctx.invalidate(queryKeys.notificationGroups.all);
    // A drawer open on the deleted group would only fail to load: back to the list.
    if (ctx.location?.().pathname.includes(found._id)) ctx.navigate('/notification-groups');
    return { message: `Deleted notification group **${found.name}**.`, data: found };
  },
});
