import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';

export const refreshGroups = defineCommand({
  id: 'group.refresh',
  title: 'Refresh notification groups',
  category: 'Notification Groups',
  description: 'Fetch the notification groups list again.',
  input: z.object({}).strict(),
  permission: 'read',
  history: false,
  async run(_input, ctx) {
    await ctx.invalidate(queryKeys.notificationGroups.all);
    return {};
  },
});
