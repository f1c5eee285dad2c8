import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { deleteUser as deleteUserCall } from '../../src/api/users';
import { defineCommand } from '../define-command';
import { resolveUser } from './resolve-user';

export const deleteUser = defineCommand({
  id: 'user.delete',
  title: 'Delete user',
  category: 'Users',
  input: z.object({ user: z.string().min(1, 'user is required') }),
  args: [{ name: 'user', label: 'User', kind: 'entity', entity: 'user', positional: true }],
  permission: 'users.write',
  // Resolve "ann" before asking, so a typo answers "No user matches" instead of "Are you sure?"; the run deletes the user found.
  prepare: ({ user }, ctx) => resolveUser(ctx.api, user),
  // SPEC §2 Users: the drawer's confirmation text, Yes/No.
  // The confirmation names the user it would delete (issue 13), below SPEC's question.
  destructive: { title: 'Delete User', message: () => 'Are you sure to delete this user?', target: (_input, found) => `${found.username} · ${found.email} · ${found.role}`, confirmLabel: 'Yes', cancelLabel: 'No' },
  async run(_input, ctx, found) {
    await deleteUserCall(ctx.api, found._id);
    await ctx.invalidate(queryKeys.users.all);
    ctx.navigate('/users');
    return { message: `Deleted user **${found.username}** (${found.email}).`, data: found };
  },
});
