import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';

export const refreshChecks = defineCommand({
  id: 'check.refresh',
  title: 'Refresh checks',
  category: 'Checks',
  description: 'Fetch the latest results of the checks list.',
  input: z.object({}).strict(),
  permission: 'read',
  history: false,
  async run(_input, ctx) {
    await ctx.invalidate([...queryKeys.checks.all, 'list']);
    return {};
  },
});
