import { z } from 'zod';
import { defineCommand } from '../define-command';
import { resolveServer } from './resolve-server';

export const showServer = defineCommand({
  id: 'server.show',
  title: 'Show server',
  category: 'Servers',
  description: 'Open the detail of a server, by hostname, IP address or id (a unique part of a name is enough).',
  input: z.object({ server: z.string().trim().min(1, 'server is required') }),
  args: [{ name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true }],
  permission: 'read',
  history: false,
  async run({ server }, ctx) {
    const found = await resolveServer(ctx.api, server);
    ctx.navigate(`/servers/show/${found._id}`);
    return { message: `Opened **${found.hostname}** (${found.ipaddress}).`, data: found };
  },
});
