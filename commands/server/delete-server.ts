import { z } from 'zod';
import { staleAfter } from '../../src/api/query-keys';
import { deleteServer as deleteServerCall } from '../../src/api/servers';
import { defineCommand } from '../define-command';
import { resolveServer } from './resolve-server';
import { invalidateAll } from '../stale';

/** SPEC §2/§5: the delete dialog's checkbox text; the command path asks for the same acknowledgement. */
export const DELETE_SERVER_ACKNOWLEDGEMENT = 'I understand the consequences of deleting this server.';

export const deleteServer = defineCommand({
  id: 'server.delete',
  title: 'Delete server',
  category: 'Servers',
  description: 'Remove a server with its metrics and services. Uninstall its agent too (the delete dialog lists the steps).',
  input: z.object({
    server: z.string().trim().min(1, 'server is required'),
    // Not `destructive`: the gate's generic "Are you sure?" would ask twice after the dialog's
    // checkbox. Instead every front door must carry the acknowledgement itself (docs/decisions.md).
    acknowledge: z.literal(true, { error: `confirm with --acknowledge ("${DELETE_SERVER_ACKNOWLEDGEMENT}")` }),
  }),
  args: [
    { name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true },
    { name: 'acknowledge', label: DELETE_SERVER_ACKNOWLEDGEMENT, kind: 'boolean' },
  ],
  permission: 'servers.write',
  // Resolve first, so "web" answers "No server matches" or lists the candidates before anything happens; the run deletes the server found.
  prepare: (input, ctx) => resolveServer(ctx.api, input.server),
  async run(_input, ctx, found) {
    await deleteServerCall(ctx.api, found._id);
    await invalidateAll(ctx, staleAfter.serverDeleted);
    return { message: `Deleted server **${found.hostname}** (${found.ipaddress}). Uninstall its agent if it still runs.`, data: found };
  },
});
