import { z } from 'zod';
import { updateNotificationGroup } from '../../src/api/notification-groups';
import { queryKeys } from '../../src/api/query-keys';
import { addEmails } from '../../src/lib/email-list';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { groupFieldError } from './group-fields';
import { resolveGroup } from './resolve-group';

export const addGroupEmail = defineCommand({
  id: 'group.add-email',
  title: 'Add email to notification group',
  category: 'Notification Groups',
  description: 'Add one or more addresses (separated by commas) to a group’s email list; ones already there are skipped.',
  input: z.object({ group: z.string().trim().min(1, 'group is required'), email: z.string().trim().min(1, 'email is required') }).strict(),
  args: [
    { name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true },
    { name: 'email', label: 'Email', kind: 'text', positional: true, placeholder: 'name@example.com' },
  ],
  permission: 'groups.write',
  // Undo takes off only the addresses this run added (not the ones already there).
  inverse: (_input, result) => {
    const added = (result.before as { added?: string[] } | undefined)?.added ?? [];
    const group = (result.data as { _id: string } | undefined)?._id;
    return group ? added.map((email) => ({ id: 'group.remove-email', input: { group, email } })) : null;
  },
  async run({ group, email }, ctx) {
    const found = await resolveGroup(ctx.api, group);
    const out = addEmails(found.emailList, email);
    if (out.error) throw new CommandError(out.error);
    if (!out.added.length) return { message: `${out.duplicates.join(', ')} ${out.duplicates.length === 1 ? 'is' : 'are'} already on **${found.name}**’s list.`, data: found };
    const { result } = await updateNotificationGroup(ctx.api, found._id, { emailList: out.list }).catch((err: unknown) => {
      throw groupFieldError(err);
    });
    await ctx.invalidate(queryKeys.notificationGroups.all);
    const off = result.emailEnabled ? '' : ' Email is off for this group.';
    return { message: `Added ${out.added.join(', ')} to **${result.name}**.${off}`, data: result, before: { added: out.added } };
  },
});
