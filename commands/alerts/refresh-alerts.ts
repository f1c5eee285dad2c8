import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';

export const refreshAlerts = defineCommand({
  id: 'alerts.refresh',
  title: 'Refresh alerts',
  category: 'Alerts',
  description: 'Fetch the latest alerts for the Notifications lists.',
  input: z.object({}).strict(),
  permission: 'read',
  history: false,
  async run(_input, ctx) {
    // Only the lists: an open alert drawer keeps what the person is reading.
    await ctx.invalidate([...queryKeys.alerts.all, 'list']);
    return {};
  },
});
