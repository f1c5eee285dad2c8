import { createHash, randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { createDefaultRulesIfMissing } from '../alerting/defaults';
import type { AuditScope } from '../audit/trail';
import { encodeInstallToken, PORT_CHECK_TIMEOUT_MS, type AgentReport, type ApiKeyInfo, type ApiKeyPrivilege, type CreatedApiKey, type ValidatedApiKey } from '../contract/agent';
import type { Whoami } from '../contract/auth';
import { isUuid } from '../contract/ids';
import type { Server } from '../contract/servers';
import type { Db } from '../db/client';
import { apiKeys, servers } from '../db/schema';
import { badRequest, HttpError, notFound } from '../http/errors';
import type { Monitoring } from '../monitoring/monitoring';
import type { OutboundPolicy } from '../outbound/policy';
import { findServer, serverTarget, serverToApi, type ServerRow } from '../servers/service';
import { tcpProbe } from './port-probe';

/** How the audit trail names an installer key: by its visible prefix. */
export const keyTarget = (key: { id: string; prefix: string }) => ({ kind: 'api-key', id: key.id, name: `${key.prefix}…` });

const KEY_PREFIX = 'sbk_';
const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
/** A syntactically possible key: anything else is refused before touching the database. */
const KEY_SHAPE = /^sbk_[A-Za-z0-9_-]{20,100}$/;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export type KeyCheck = { ok: true; keyId: string; prefix: string; server: ServerRow; privileges: ApiKeyPrivilege[] } | { ok: false; message: string };

/** Whether a key the installer presents is live, and for which server with which privileges. */
export async function checkKey(db: Db, key: string | undefined): Promise<KeyCheck> {
  if (!key || !KEY_SHAPE.test(key)) return { ok: false, message: 'This API key is not valid' };
  const rows = await db.select({ key: apiKeys, server: servers }).from(apiKeys).innerJoin(servers, eq(servers.id, apiKeys.serverId)).where(eq(apiKeys.keyHash, hashKey(key))).limit(1);
  const row = rows[0];
  if (!row) return { ok: false, message: 'This API key is not valid' };
  if (row.key.revokedAt) return { ok: false, message: 'This API key was revoked; generate a new one in the console' };
  return { ok: true, keyId: row.key.id, prefix: row.key.prefix, server: row.server, privileges: row.key.privileges as ApiKeyPrivilege[] };
}

/**
 * SPEC §3 the installer's key and install token for a server; `apiUrl` is where the installer
 * reaches this console. The key itself is answered once and stored only as its hash.
 */
export async function createApiKey(tx: Db, input: { serverId: string; privilages: ApiKeyPrivilege[]; apiUrl: string }, actor: Whoami, audit: AuditScope): Promise<CreatedApiKey> {
  const server = await findServer(tx, input.serverId);
  audit.target(serverTarget(server));
  if (server.status === 'suspended') throw new HttpError(409, 'This server is suspended: its agent cannot be set up');
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const prefix = key.slice(0, KEY_PREFIX.length + 6);
  const [created] = await tx
    .insert(apiKeys)
    .values({ serverId: server.id, keyHash: hashKey(key), prefix, privileges: [...new Set(input.privilages)], createdBy: actor._id })
    .returning();
  audit.target(keyTarget(created!));
  const { apiUrl } = input;
  return { key, id: created!.id, prefix, serverId: server.id, apiUrl, token: encodeInstallToken({ apiUrl, serverId: server.id, key }) };
}

/** The installer's question "is my key valid?": its server as the installer needs it, or 401 saying why not. */
export async function validateApiKey(db: Db, input: { key: string }): Promise<ValidatedApiKey> {
  const check = await checkKey(db, input.key);
  if (!check.ok) throw new HttpError(401, check.message);
  return {
    valid: true,
    serverId: check.server.id,
    hostname: check.server.hostname,
    operating_system: check.server.operatingSystem,
    agentPort: check.server.agentPort,
    privilages: check.privileges,
  };
}

/** The installer reports a running exporter (the wizard's step 2 waits for this flag); the key's last use is stamped. */
export async function recordAgentInstalled(tx: Db, input: { keyId: string; server: ServerRow; report: AgentReport }) {
  const now = new Date();
  await tx.update(servers).set({ isAgentInstalled: true, updatedAt: now }).where(eq(servers.id, input.server.id));
  await tx.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, input.keyId));
  const s = input.server;
  return { serverId: s.id, hostname: s.hostname, isAgentInstalled: true as const, isAgentConfigured: s.isAgentConfigured, agentPort: s.agentPort };
}

/** A server's installer keys, newest first (revoked ones too): never the secret. */
export async function listApiKeys(db: Db, input: { serverId?: string }): Promise<ApiKeyInfo[]> {
  if (!input.serverId) throw badRequest('serverId is required', 'serverId');
  const server = await findServer(db, input.serverId);
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.serverId, server.id)).orderBy(desc(apiKeys.createdAt));
  return rows.map((r) => ({
    _id: r.id,
    serverId: r.serverId,
    prefix: r.prefix,
    privilages: r.privileges,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: iso(r.lastUsedAt),
    revokedAt: iso(r.revokedAt),
  }));
}

/** Revoking keeps the row so the installer hears "revoked", not "unknown". Revoking twice is fine. */
export async function revokeApiKey(tx: Db, input: { id: string }, audit: AuditScope) {
  const { id } = input;
  const row = isUuid(id) ? (await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1))[0] : undefined;
  if (!row) throw notFound(`No API key with id "${id}"`);
  audit.target(keyTarget(row));
  audit.related(row.serverId);
  const [updated] = await tx.update(apiKeys).set({ revokedAt: row.revokedAt ?? new Date() }).where(eq(apiKeys.id, id)).returning();
  return { _id: updated!.id, prefix: updated!.prefix, serverId: updated!.serverId, revokedAt: updated!.revokedAt!.toISOString() };
}

/** Whether this console reaches the server's agent port: null when it does, else why not, in words a person can act on. */
export async function agentPortRefusal(db: Db, input: { id: string }, outbound: OutboundPolicy): Promise<string | null> {
  const server = await findServer(db, input.id);
  const why = await tcpProbe(server.ipaddress, server.agentPort, PORT_CHECK_TIMEOUT_MS, outbound);
  if (why === null) return null;
  return `Port ${server.agentPort} on ${server.ipaddress} is not accessible: ${why}. Check that the agent runs and that a firewall lets this console reach the port.`;
}

/**
 * The final "agent configured" switch. Issue 4's hook: an agent-configured server gets its
 * default alert rules at once, and its first figures without waiting for the next scrape round.
 */
export async function setAgentConfigured(tx: Db, input: { id: string }, audit: AuditScope, monitoring: Monitoring): Promise<Server> {
  const server = await findServer(tx, input.id);
  audit.target(serverTarget(server));
  if (server.status === 'suspended') throw new HttpError(409, 'This server is suspended: its agent cannot be configured');
  const [row] = await tx.update(servers).set({ isAgentConfigured: true, updatedAt: new Date() }).where(eq(servers.id, server.id)).returning();
  await createDefaultRulesIfMissing(tx, server.id);
  audit.afterCommit(() => monitoring.refreshSoon(server.id));
  return serverToApi(row!);
}
