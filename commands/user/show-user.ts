import { z } from 'zod';
import { defineCommand } from '../define-command';
import { resolveUser } from './resolve-user';

export const showUser = defineCommand({
  id: 'user.show',
  title: 'Show user',
  category: 'Users',
  input: z.object({ user: z.string().min(1, 'user is required') }),
  args: [{ name: 'user', label: 'User', kind: 'entity', entity: 'user', positional: true }],
  permission: 'users.read',
  history: false,
  async run({ user }, ctx) {
    const found = await resolveUser(ctx.api, user);
    ctx.navigate(`/users/show/${found._id}`);
    return { message: `Opened **${found.username}**.`, data: found };
  },
});
