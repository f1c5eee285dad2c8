import { DEFAULT_AGENT_PORT, type CreateServer } from '../../server/contract/servers';
import { staleAfter } from '../../src/api/query-keys';
import { createServer as createServerCall } from '../../src/api/servers';
import { defineCommand } from '../define-command';
import { fieldError, osLabels, serverFieldArgs, serverFieldsSchema, toApiBody } from './server-fields';
import { invalidateAll } from '../stale';

export const createServer = defineCommand({
  id: 'server.create',
  title: 'Create server',
  category: 'Servers',
  description: `Register a Linux or Windows server; its agent listens on port ${DEFAULT_AGENT_PORT} unless you say otherwise.`,
  input: serverFieldsSchema,
  args: [serverFieldArgs.hostname, serverFieldArgs.ipaddress, serverFieldArgs.os, { ...serverFieldArgs.port, optional: true }],
  permission: 'servers.write',
  inverse: (_input, result) => {
    const id = (result.data as { _id?: string } | undefined)?._id;
    return id ? { id: 'server.delete', input: { server: id, acknowledge: true } } : null;
  },
  async run(input, ctx) {
    const body = toApiBody(input) as CreateServer;
    const { result } = await createServerCall(ctx.api, body).catch((err: unknown) => {
      throw fieldError(err);
    });
    await invalidateAll(ctx, staleAfter.server);
    return { message: `Created server **${result.hostname}** (${result.ipaddress}:${result.agentPort}, ${osLabels[result.operating_system]}).`, data: result };
  },
});
