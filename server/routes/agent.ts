import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  agentReportSchema,
  createApiKeySchema,
  encodeInstallToken,
  isHostHeader,
  PORT_CHECK_TIMEOUT_MS,
  type ApiKeyInfo,
  type ApiKeyPrivilege,
  type CreatedApiKey,
  type ValidatedApiKey,
} from '../contract/agent';
import type { Db } from '../db/client';
import { apiKeys, servers } from '../db/schema';
import { createDefaultRulesIfMissing } from '../alerting/defaults';
import { audited, auditActor, auditRelated, auditTarget } from '../audit/trail';
import { badRequest, fromZod, HttpError, notFound } from '../http/errors';
import { requirePermission, requireUser } from '../http/session';
import type { Monitoring } from '../monitoring/monitoring';
import { isUuid } from '../contract/ids';
import { OutboundPolicy, OutboundRefused } from '../outbound/policy';
import { serverTarget, serverToApi } from './servers';

const keyTarget = (key: { id: string; prefix: string }) => ({ kind: 'api-key', id: key.id, name: `${key.prefix}…` });

const KEY_PREFIX = 'sbk_';
const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');
/** A syntactically possible key: anything else is refused before touching the database. */
const KEY_SHAPE = /^sbk_[A-Za-z0-9_-]{20,100}$/;

type KeyCheck = { ok: true; keyId: string; prefix: string; server: typeof servers.$inferSelect; privileges: ApiKeyPrivilege[] } | { ok: false; message: string };

async function checkKey(db: Db, key: string | undefined): Promise<KeyCheck> {
  if (!key || !KEY_SHAPE.test(key)) return { ok: false, message: 'This API key is not valid' };
  const rows = await db.select({ key: apiKeys, server: servers }).from(apiKeys).innerJoin(servers, eq(servers.id, apiKeys.serverId)).where(eq(apiKeys.keyHash, hashKey(key))).limit(1);
  const row = rows[0];
  if (!row) return { ok: false, message: 'This API key is not valid' };
  if (row.key.revokedAt) return { ok: false, message: 'This API key was revoked; generate a new one in the console' };
  return { ok: true, keyId: row.key.id, prefix: row.key.prefix, server: row.server, privileges: row.key.privileges as ApiKeyPrivilege[] };
}

/** The key of `Authorization: Bearer <key>` (or `x-api-key`, for clients that cannot set Authorization). */
function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    return m?.[1];
  }
  const x = request.headers['x-api-key'];
  return typeof x === 'string' ? x.trim() : undefined;
}

/**
 * One TCP connect with a deadline: null when it connected, else why not, in words. The agent's
 * port is an exporter's: the outbound policy's exporter rules decide whether it is tried.
 */
export function tcpProbe(host: string, port: number, timeoutMs: number, outbound: OutboundPolicy = new OutboundPolicy()): Promise<string | null> {
  let lookup;
  try {
    ({ lookup } = outbound.connectOptions(host, port, 'exporter'));
  } catch (error) {
    if (error instanceof OutboundRefused) return Promise.resolve(error.message);
    throw error;
  }
  return new Promise((resolve) => {
    const socket = connect({ host, port, lookup });
    const done = (reason: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reason);
    };
    const timer = setTimeout(() => done(`no answer within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    socket.once('connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) => {
      const words: Record<string, string> = {
        ECONNREFUSED: 'connection refused (nothing listens on the port)',
        EHOSTUNREACH: 'host unreachable',
        ENETUNREACH: 'network unreachable',
        ECONNRESET: 'connection reset',
        EADDRNOTAVAIL: 'address not available',
      };
      done(words[err.code ?? ''] ?? err.message);
    });
  });
}

async function findServer(db: Db, id: string) {
  const row = isUuid(id) ? (await db.select().from(servers).where(eq(servers.id, id)).limit(1))[0] : undefined;
  if (!row) throw notFound(`No server with id "${id}"`);
  return row;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * SPEC §3/§4/§7 agent onboarding: API keys for the installer, the install token, the port check
 * and the final "agent configured" switch. The installer itself is served by routes/agent-downloads.ts.
 */
export function registerAgent(app: FastifyInstance, db: Db, monitoring: Monitoring, options: { publicUrl?: string }): void {
  /**
   * Where the installer reaches this console: PUBLIC_URL, else the address this request came to,
   * which must then be a plain host[:port]: the Host header is the caller's to write, and it ends
   * up in a token and a command someone pastes into a root shell.
   */
  const apiUrlOf = (request: FastifyRequest) => {
    if (options.publicUrl) return options.publicUrl;
    const host = request.host;
    if (!host || !isHostHeader(host)) throw badRequest(`The Host header ${JSON.stringify(host ?? '')} is not a host[:port]; set PUBLIC_URL to the address hosts reach this console at`, 'host');
    return `${request.protocol}://${host}`;
  };

  app.post('/api/cli/create_api_key', { preHandler: requirePermission('servers.write') }, async (request, reply) => {
    const parsed = createApiKeySchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const user = requireUser(request);
    // Before anything is written: a refused Host leaves no key behind.
    const apiUrl = apiUrlOf(request);
    const server = await findServer(db, parsed.data.serverId);
    auditTarget(request, serverTarget(server));
    if (server.status === 'suspended') throw new HttpError(409, 'This server is suspended: its agent cannot be set up');
    const key = KEY_PREFIX + randomBytes(32).toString('base64url');
    const prefix = key.slice(0, KEY_PREFIX.length + 6);
    const row = await audited(request, db, async (tx) => {
      const [created] = await tx
        .insert(apiKeys)
        .values({ serverId: server.id, keyHash: hashKey(key), prefix, privileges: [...new Set(parsed.data.privilages)], createdBy: user._id })
        .returning();
      auditTarget(request, keyTarget(created!));
      return created;
    });
    const data: CreatedApiKey = { key, id: row!.id, prefix, serverId: server.id, apiUrl, token: encodeInstallToken({ apiUrl, serverId: server.id, key }) };
    return reply.status(201).send({ data });
  });

  // Called by the installer (no session): the key is the credential, so it is in the path as SPEC says.
  app.get<{ Params: { key: string } }>('/api/cli/validate_api_key/:key', async (request) => {
    const check = await checkKey(db, request.params.key);
    if (!check.ok) throw new HttpError(401, check.message);
    const data: ValidatedApiKey = {
      valid: true,
      serverId: check.server.id,
      hostname: check.server.hostname,
      operating_system: check.server.operatingSystem,
      agentPort: check.server.agentPort,
      privilages: check.privileges,
    };
    return { data };
  });

  // The installer reports a running exporter; the wizard's step 2 waits for this flag.
  app.post('/api/cli/agent-installed', async (request) => {
    const check = await checkKey(db, presentedKey(request));
    // An unknown key names nobody: the refusal is in the request log, not the trail.
    if (!check.ok) throw new HttpError(401, check.message);
    auditActor(request, { kind: 'agent', userId: null, username: `agent key ${check.prefix}…`, role: null, keyId: check.keyId, label: check.prefix });
    auditTarget(request, serverTarget(check.server));
    if (!check.privileges.includes('UPDATE')) throw new HttpError(403, 'This API key may not update its server (it lacks the UPDATE privilege)');
    const parsed = agentReportSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const now = new Date();
    await audited(request, db, async (tx) => {
      await tx.update(servers).set({ isAgentInstalled: true, updatedAt: now }).where(eq(servers.id, check.server.id));
      await tx.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, check.keyId));
    });
    request.log.info({ server: check.server.id, report: parsed.data }, 'agent installed');
    return { data: { serverId: check.server.id, hostname: check.server.hostname, isAgentInstalled: true, isAgentConfigured: check.server.isAgentConfigured, agentPort: check.server.agentPort } };
  });

  app.get<{ Querystring: { serverId?: string } }>('/api/cli/api_keys', { preHandler: requirePermission('servers.write') }, async (request) => {
    const serverId = request.query.serverId;
    if (!serverId) throw badRequest('serverId is required', 'serverId');
    const server = await findServer(db, serverId);
    const rows = await db.select().from(apiKeys).where(eq(apiKeys.serverId, server.id)).orderBy(desc(apiKeys.createdAt));
    const data: ApiKeyInfo[] = rows.map((r) => ({
      _id: r.id,
      serverId: r.serverId,
      prefix: r.prefix,
      privilages: r.privileges,
      createdAt: r.createdAt.toISOString(),
      lastUsedAt: iso(r.lastUsedAt),
      revokedAt: iso(r.revokedAt),
    }));
    return { result: { data, count: data.length } };
  });

  // Revoking keeps the row so the installer hears "revoked", not "unknown". Revoking twice is fine.
  app.delete<{ Params: { id: string } }>('/api/cli/api_keys/:id', { preHandler: requirePermission('servers.write') }, async (request) => {
    const id = request.params.id;
    const row = isUuid(id) ? (await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1))[0] : undefined;
    if (!row) throw notFound(`No API key with id "${id}"`);
    auditTarget(request, keyTarget(row));
    auditRelated(request, row.serverId);
    const updated = await audited(request, db, async (tx) => (await tx.update(apiKeys).set({ revokedAt: row.revokedAt ?? new Date() }).where(eq(apiKeys.id, id)).returning())[0]);
    return { result: { _id: updated!.id, prefix: updated!.prefix, serverId: updated!.serverId, revokedAt: iso(updated!.revokedAt) } };
  });

  app.get<{ Params: { id: string } }>('/api/servers/check-port-access/:id', { preHandler: requirePermission('servers.write') }, async (request, reply) => {
    const server = await findServer(db, request.params.id);
    const why = await tcpProbe(server.ipaddress, server.agentPort, PORT_CHECK_TIMEOUT_MS, app.outbound);
    if (why === null) return { isPortAccessible: true };
    // SPEC §7/§8: the failure is an error whose message the wizard shows (response.data.message).
    // 422: the request was fine, the server's agent port is what is not; never a 5xx, which would
    // read as the console failing.
    const message = `Port ${server.agentPort} on ${server.ipaddress} is not accessible: ${why}. Check that the agent runs and that a firewall lets this console reach the port.`;
    return reply.status(422).send({ statusCode: 422, error: 'Unprocessable Entity', message, isPortAccessible: false, data: { message } });
  });

  app.patch<{ Params: { id: string } }>('/api/servers/update-agent-configure-status/:id', { preHandler: requirePermission('servers.write') }, async (request) => {
    const server = await findServer(db, request.params.id);
    auditTarget(request, serverTarget(server));
    if (server.status === 'suspended') throw new HttpError(409, 'This server is suspended: its agent cannot be configured');
    // Issue 4's hook: an agent-configured server gets its default alert rules at once, and its
    // first figures without waiting for the next scrape round.
    const updated = await audited(request, db, async (tx, scope) => {
      const [row] = await tx.update(servers).set({ isAgentConfigured: true, updatedAt: new Date() }).where(eq(servers.id, server.id)).returning();
      await createDefaultRulesIfMissing(tx, server.id);
      scope.afterCommit(() => monitoring.refreshSoon(server.id));
      return row;
    });
    return { isAgentConfigured: true, result: serverToApi(updated!) };
  });
}
