import { z } from 'zod';
import type { Server } from '../../server/contract/servers';
import { staleAfter } from '../../src/api/query-keys';
import { updateServer } from '../../src/api/servers';
import { defineCommand } from '../define-command';
import { resolveServer } from './resolve-server';
import { fieldError, osLabels, serverFieldArgs, serverFieldsSchema, toApiBody, type ServerFields } from './server-fields';
import { invalidateAll } from '../stale';

export const editServer = defineCommand({
  id: 'server.edit',
  title: 'Edit server',
  category: 'Servers',
  description: 'Change a server’s hostname, IP address, operating system or agent port; with no changes given, open its edit form.',
  input: serverFieldsSchema.partial().extend({ server: z.string().trim().min(1, 'server is required') }),
  args: [
    { name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true },
    { ...serverFieldArgs.hostname, optional: true },
    { ...serverFieldArgs.ipaddress, optional: true },
    { ...serverFieldArgs.os, optional: true },
    { ...serverFieldArgs.port, optional: true },
  ],
  permission: 'servers.write',
  // Undo sets back the fields this run changed.
  inverse: (_input, result) => {
    const before = result.before as Server | undefined;
    const after = result.data as Server | undefined;
    if (!before || !after) return null;
    const back: Partial<ServerFields> = {};
    if (before.hostname !== after.hostname) back.hostname = before.hostname;
    if (before.ipaddress !== after.ipaddress) back.ipaddress = before.ipaddress;
    if (before.operating_system !== after.operating_system) back.os = before.operating_system;
    if (before.agentPort !== after.agentPort) back.port = before.agentPort;
    return Object.keys(back).length ? { id: 'server.edit', input: { server: before._id, ...back } } : null;
  },
  async run({ server, ...fields }, ctx) {
    const found = await resolveServer(ctx.api, server);
    // Only what differs is sent: an unchanged IP must not trip the "address taken" check.
    const changes: Partial<ServerFields> = {};
    if (fields.hostname !== undefined && fields.hostname !== found.hostname) changes.hostname = fields.hostname;
    if (fields.ipaddress !== undefined && fields.ipaddress !== found.ipaddress) changes.ipaddress = fields.ipaddress;
    if (fields.os !== undefined && fields.os !== found.operating_system) changes.os = fields.os;
    if (fields.port !== undefined && fields.port !== found.agentPort) changes.port = fields.port;
    if (Object.values(fields).every((v) => v === undefined)) {
      ctx.navigate(`/servers/edit/${found._id}`);
      return { message: `Editing **${found.hostname}**.`, data: found };
    }
    if (!Object.keys(changes).length) return { message: `**${found.hostname}** already has these settings.`, data: found };
    const { result } = await updateServer(ctx.api, found._id, toApiBody(changes)).catch((err: unknown) => {
      throw fieldError(err);
    });
    await invalidateAll(ctx, staleAfter.server);
    const what = Object.keys(changes)
      .map((k) => ({ hostname: `hostname ${result.hostname}`, ipaddress: `IP ${result.ipaddress}`, os: osLabels[result.operating_system], port: `agent port ${result.agentPort}` })[k as keyof ServerFields])
      .join(', ');
    return { message: `Updated **${result.hostname}**: ${what}.`, data: result, before: found };
  },
});
