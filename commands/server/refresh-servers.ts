import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';

export const refreshServers = defineCommand({
  id: 'server.refresh',
  title: 'Refresh servers list',
  category: 'Servers',
  description: 'Fetch the latest figures of the servers list.',
  input: z.object({}).strict(),
  permission: 'read',
  history: false,
  async run(_input, ctx) {
    // Only the lists: a detail open elsewhere keeps its own refresh rhythm.
    await ctx.invalidate([...queryKeys.servers.all, 'list']);
    return {};
  },
});
