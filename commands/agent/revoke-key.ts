import { z } from 'zod';
import type { ApiKeyInfo } from '../../server/contract/agent';
import { listApiKeys, revokeApiKey } from '../../src/api/agent';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveServer } from '../server/resolve-server';

/**
 * Revokes a server's installer keys: one (by its id or the prefix the console showed) or, without
 * `--key`, every key still active. A revoked key can no longer report an install.
 */
export const revokeKey = defineCommand({
  id: 'agent.revoke-key',
  title: 'Revoke agent API key',
  category: 'Agent',
  description: "Revokes one API key of a server's agent (by id or prefix), or all of its active keys.",
  input: z.object({
    server: z.string().trim().min(1, 'server is required'),
    key: z.string().trim().min(1).optional(),
  }),
  args: [
    { name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true },
    { name: 'key', label: 'Key id or prefix (all active keys when empty)', kind: 'text', optional: true, positional: true, placeholder: 'sbk_AbCd12' },
  ],
  permission: 'servers.write',
  // What will be revoked, found before asking: the confirmation names it and the run revokes it.
  async prepare(input, ctx) {
    const server = await resolveServer(ctx.api, input.server);
    const { result } = await listApiKeys(ctx.api, server._id);
    const active = result.data.filter((k) => !k.revokedAt);
    let chosen: ApiKeyInfo[];
    if (input.key) {
      const ref = input.key.replace(/…$/, '');
      chosen = active.filter((k) => k._id === ref || k.prefix === ref || k.prefix.startsWith(ref) || ref.startsWith(k.prefix));
      if (!chosen.length) throw new CommandError(`No active API key of ${server.hostname} matches "${input.key}"`);
      if (chosen.length > 1) throw new CommandError(`${chosen.length} keys of ${server.hostname} match "${input.key}": ${chosen.map((k) => k.prefix).join(', ')}. Give more of the prefix or the id.`);
    } else {
      chosen = active;
      if (!chosen.length) throw new CommandError(`${server.hostname} has no active API key`);
    }
    return { serverId: server._id, hostname: server.hostname, ids: chosen.map((k) => k._id), prefixes: chosen.map((k) => k.prefix) };
  },
  destructive: {
    title: 'Revoke API key',
    message: (_input, resolved) => `Revoke ${resolved.ids.length === 1 ? `key ${resolved.prefixes[0]}…` : `${resolved.ids.length} keys`} of ${resolved.hostname}? An installer using it can no longer report to the console.`,
    confirmLabel: 'Revoke',
  },
  async run(_input, ctx, resolved) {
    for (const id of resolved.ids) await revokeApiKey(ctx.api, id);
    return {
      message: `Revoked ${resolved.ids.length === 1 ? 'key' : `${resolved.ids.length} keys`} ${resolved.prefixes.map((p) => `\`${p}…\``).join(', ')} of **${resolved.hostname}**.`,
      data: { revoked: resolved.ids },
    };
  },
});
