import { z } from 'zod';
import { updateNotificationGroup } from '../../src/api/notification-groups';
import { queryKeys } from '../../src/api/query-keys';
import { hasEmail, removeEmail } from '../../src/lib/email-list';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveGroup } from './resolve-group';

export const removeGroupEmail = defineCommand({
  id: 'group.remove-email',
  title: 'Remove email from notification group',
  category: 'Notification Groups',
  description: 'Take an address off a group’s email list.',
  input: z.object({ group: z.string().trim().min(1, 'group is required'), email: z.string().trim().min(1, 'email is required') }).strict(),
  args: [
    { name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true },
    { name: 'email', label: 'Email', kind: 'text', positional: true, placeholder: 'name@example.com' },
  ],
  permission: 'groups.write',
  inverse: ({ email }, result) => {
    const group = (result.data as { _id: string } | undefined)?._id;
    return group ? { id: 'group.add-email', input: { group, email } } : null;
  },
  async run({ group, email }, ctx) {
    const found = await resolveGroup(ctx.api, group);
    if (!hasEmail(found.emailList, email)) throw new CommandError(`${email} is not on **${found.name}**’s email list`);
    const { result } = await updateNotificationGroup(ctx.api, found._id, { emailList: removeEmail(found.emailList, email) });
    await ctx.invalidate(queryKeys.notificationGroups.all);
    return { message: `Removed ${email} from **${result.name}**.`, data: result };
  },
});
