import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { updateAccount } from '../../src/api/users';
import { defineCommand } from '../define-command';

export const renameAccount = defineCommand({
  id: 'account.rename',
  title: 'Rename my account',
  category: 'Account',
  input: z.object({ username: z.string().trim().min(1, 'username is required').max(500) }),
  args: [{ name: 'username', label: 'User name', kind: 'text', positional: true }],
  permission: 'read',
  async run({ username }, ctx) {
    const { result } = await updateAccount(ctx.api, ctx.user!._id, { username });
    ctx.session.signedIn({ ...ctx.user!, username: result.username });
    await ctx.invalidate(queryKeys.auth.whoami);
    await ctx.invalidate(queryKeys.users.all);
    return { message: `Your user name is now **${result.username}**.`, data: result };
  },
});
