import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';

export const refreshUsers = defineCommand({
  id: 'user.refresh',
  title: 'Refresh users',
  category: 'Users',
  description: 'Fetch the users list again.',
  input: z.object({}).strict(),
  permission: 'users.read',
  history: false,
  async run(_input, ctx) {
    await ctx.invalidate([...queryKeys.users.all, 'list']);
    return {};
  },
});
