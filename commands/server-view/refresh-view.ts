import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { needsServerDetail, openServerView, NO_SERVER_DETAIL } from './current-view';

/**
 * The refresh button of the server detail (the Services tab's, SPEC §2): fetch the open
 * server's record, figures, up status, services and charts again, now rather than at the next
 * auto-refresh tick.
 */
export const refreshView = defineCommand({
  id: 'server.refresh-view',
  title: 'Refresh server detail',
  category: 'Server detail',
  input: z.object({}).strict(),
  permission: 'read',
  enabled: needsServerDetail,
  history: false,
  async run(_input, ctx) {
    const view = openServerView(ctx);
    if (!view) throw new Error(NO_SERVER_DETAIL);
    const id = view.serverId;
    await Promise.all([
      ctx.invalidate(queryKeys.servers.one(id)),
      ctx.invalidate(queryKeys.servers.usage(id)),
      ctx.invalidate(queryKeys.servers.upstatus(id)),
      // Service lists are keyed by their query, which names the server inside a filter.
      ctx.invalidate([...queryKeys.servers.all, 'services']),
      ctx.invalidate([...queryKeys.servers.all, 'chart', id]),
    ]);
    return {};
  },
});
