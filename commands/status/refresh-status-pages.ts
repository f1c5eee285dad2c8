import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';

export const refreshStatusPages = defineCommand({
  id: 'status.refresh',
  title: 'Refresh status pages',
  category: 'Status Pages',
  description: 'Fetch the status pages list again.',
  input: z.object({}).strict(),
  permission: 'read',
  history: false,
  async run(_input, ctx) {
    await ctx.invalidate([...queryKeys.statusPages.all, 'list']);
    return {};
  },
});
