import { z } from 'zod';
import { serverDetailHref } from '../../src/lib/server-view';
import { defineCommand } from '../define-command';
import { resolveServer } from '../server/resolve-server';
import { openServerView } from './current-view';

/**
 * The header's Switch Server selector: open another server's detail. From a server detail the
 * tab, time range, time zone and refresh interval come along (comparing two servers over the
 * same hour); the Services filters belong to the server they were typed for and do not.
 */
export const switchServer = defineCommand({
  id: 'server.switch',
  title: 'Switch server',
  category: 'Server detail',
  description: 'Open another server’s detail, keeping the tab and time range (hostname, IP address or id).',
  input: z.object({ server: z.string().trim().min(1, 'server is required') }),
  args: [{ name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true }],
  permission: 'read',
  history: false,
  async run({ server }, ctx) {
    const found = await resolveServer(ctx.api, server);
    const view = openServerView(ctx);
    const keep = view ? { tab: view.search.tab, range: view.search.range, from: view.search.from, to: view.search.to, tz: view.search.tz, refresh: view.search.refresh } : {};
    ctx.navigate(serverDetailHref(found._id, keep));
    return { message: `Switched to **${found.hostname}** (${found.ipaddress}).`, data: found };
  },
});
