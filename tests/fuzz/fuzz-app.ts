import type { InjectOptions } from 'fastify';
import { createSession } from '../../server/http/session';
import type { Role } from '../../server/contract/permissions';
import { startTestApp, type Backend, type TestApp } from '../api/harness';
import type { z } from 'zod';
import { encodeParam, type Pools } from './inputs';
import { exportedSchemas } from './schema-walk';

export type Who = Role | 'anonymous';
export const WHO: Who[] = ['anonymous', 'user', 'sysadmin', 'admin'];

/**
 * Tables whose rows may change on a rejected request, and why. Empty today: no read or refusal
 * writes anything beyond what RECORDED_REFUSALS allows.
 */
export const VOLATILE_TABLES: Record<string, string> = {};

/**
 * Tables where a rejected request may add rows of one kind only: the compared rows are the rest.
 * The audit trail records refused and failed calls by design (issue 11 §2), but never as done.
 */
export const RECORDED_REFUSALS: Record<string, { compared: string; why: string }> = {
  command_history: { compared: `x.outcome = 'ok'`, why: 'the audit trail records refused calls with their outcome; none may read as done' },
  // Migration 0024: a recorded refusal is a command_history row, so its trigger adds a +1 delta.
  row_counts: { compared: `x.tbl <> 'command_history'`, why: "the trail's refused records add command_history's count deltas; no other table's count may move" },
  // Migration 0028: a recorded refusal is a History record, which the live stream announces.
  live_events: { compared: `x.kind <> 'history'`, why: "the trail's refused records are announced to live streams; no other change may be" },
};

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export interface FuzzApp {
  t: TestApp;
  backend: string;
  routes: { method: string; url: string }[];
  pools: Pools;
  /** The API key the seeded server's installer holds (Bearer for /api/cli/agent-installed). */
  apiKey: string;
  send: (who: Who, request: FuzzRequest) => Promise<{ status: number; body: string; error?: string }>;
  snapshot: () => Promise<Map<string, string>>;
  /** After a request that succeeded: sessions signed out, users suspended or demoted are put back. */
  restoreActors: () => Promise<void>;
}

export async function startFuzzApp(backend: Backend): Promise<FuzzApp> {
  let lastError: string | undefined;
  const t = await startTestApp(backend, { signinRateLimit: 1_000_000 }, {
    beforeReady: (app) =>
      app.addHook('onError', async (_request, _reply, error) => {
        lastError = (error.stack ?? String(error)).split('\n').slice(0, 6).join('\n');
      }),
  });
  const { app, database } = t;
  const actors = new Map<Who, { id: string; role: Role; token?: string }>();
  for (const role of ['user', 'sysadmin', 'admin'] as const) {
    const u = await t.addUser({ role, username: `fuzz-${role}`, email: `fuzz-${role}@example.com` });
    actors.set(role, { id: u._id, role });
  }
  const restoreActors = async () => {
    for (const [, actor] of actors) {
      await database.query(`update users set role = $2, status = 'active' where id = $1 and (role <> $2 or status <> 'active')`, [actor.id, actor.role]);
      const alive = actor.token && (await database.query(`select 1 from sessions where user_id = $1 and expires_at > now()`, [actor.id])).length > 0;
      if (!alive) actor.token = (await createSession(database.db, actor.id, 86_400_000)).token;
    }
  };
  await restoreActors();
  const admin = `opsdeck_session=${actors.get('admin')!.token}`;

  // Rows of every kind, so handlers get past "not found" with fuzzed bodies.
  const call = async (method: InjectOptions['method'], url: string, body?: unknown) => {
    const res = await t.call(method, url, { cookie: admin, body });
    if (res.status >= 300) throw new Error(`seeding ${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const victim = await t.addUser({ role: 'user', username: 'fuzz-victim', email: 'victim@example.com' });
  const group = (await call('POST', '/api/notification-groups', { name: 'fuzz-group', emailList: ['ops@example.com'] })).result;
  const linux = (await call('POST', '/api/servers', { hostname: 'fuzz-linux', ipaddress: '127.0.0.1', agentPort: 9, operating_system: 'linux', isAgentConfigured: true })).result;
  const windows = (await call('POST', '/api/servers', { hostname: 'fuzz-windows', ipaddress: '127.0.0.2', agentPort: 9, operating_system: 'windows' })).result;
  const config = (await call('POST', '/api/alert-config/get-alert-config/all', { filter: { serverId: linux._id } })).result.data[0];
  const key = (await call('POST', '/api/cli/create_api_key', { serverId: linux._id, privilages: ['READ', 'UPDATE'] })).data;
  // A History record to aim ids at: the server's own record of the server created above.
  const [history] = await database.query<{ _id: string }>(`select id as "_id" from command_history where outcome = 'ok' and route = '/api/servers' order by created_at limit 1`);
  const [alert] = await database.query<{ id: string }>(
    `insert into alerts (server_id, rule_id, subject, hostname, instance, alertname, type, severity, summary, description, service)
     values ($1, $2, 'ssh.service', 'fuzz-linux', '127.0.0.1', 'service_down', 'service_down_alert', 'critical', 'ssh.service is down', 'd', 'ssh.service') returning id`,
    [linux._id, config.rules[0]._id],
  );
  await database.query(`insert into services (server_id, service_name, status) values ($1, 'ssh.service', 'down')`, [linux._id]);
  const pools: Pools = {
    ids: [linux._id, windows._id, alert!.id, group._id, config._id, config.rules[0]._id, victim._id, key.id, history!._id],
    valid: ['fuzz-linux', 'linux', 'windows', 'firing', 'resolved', 'snoozed', 'victim@example.com'],
  };

  const tables = (await database.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`))
    .map((r) => r.name)
    .filter((name) => !(name in VOLATILE_TABLES));
  const snapshotSql = tables
    .map((name) => `select '${name}' as t, count(*)::int || ':' || md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${name}" x${RECORDED_REFUSALS[name] ? ` where ${RECORDED_REFUSALS[name].compared}` : ''}`)
    .join(' union all ');
  const snapshot = async () => new Map((await database.query<{ t: string; h: string }>(snapshotSql)).map((r) => [r.t, r.h]));

  return {
    t,
    backend: backend.name,
    routes: app.registeredRoutes,
    pools,
    apiKey: key.key,
    snapshot,
    restoreActors,
    async send(who, request) {
      lastError = undefined;
      const headers = { ...request.headers };
      const actor = who === 'anonymous' ? undefined : actors.get(who);
      if (actor?.token && !('cookie' in headers)) headers.cookie = `opsdeck_session=${actor.token}`;
      const res = await app.inject({ method: request.method as InjectOptions['method'], url: request.url, headers, payload: request.payload });
      return { status: res.statusCode, body: res.body.slice(0, 300), error: lastError };
    },
  };
}

export interface RouteSchema {
  /**
   * Every name the given modules bind to the schema (one object exported twice, as the history
   * export's query is the incident report's, is one schema with two names), in module order.
   */
  names: readonly string[];
  schema: z.ZodType;
  /** The query string for GET calls, else the body. */
  in: 'query' | 'body';
}

export const hasBody = (method: string) => !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method);

/** A route pattern with its parameters filled in (percent-encoded). */
export function fillUrl(url: string, params: string[]): string {
  let i = 0;
  return url.replace(/:[A-Za-z_]+|\*/g, () => encodeParam(params[i++ % Math.max(1, params.length)] ?? 'x'));
}

/**
 * Which contract schema each route validates its input with, learnt by asking: every exported
 * schema's safeParse is wrapped while each route gets one empty request as admin (with each seeded
 * id until one reaches the parse). Generated input then follows that schema, so it gets past the
 * first check and into the handler; routes that parse nothing exported still get hostile input.
 * A schema is known by its object: each is wrapped once, whatever the names it is exported under.
 */
export async function discoverSchemas(f: FuzzApp, modules: Record<string, unknown>[]): Promise<Map<string, RouteSchema>> {
  const namesOf = new Map<z.ZodType, string[]>();
  for (const mod of modules) for (const [name, schema] of exportedSchemas(mod)) namesOf.set(schema, [...(namesOf.get(schema) ?? []), name]);
  const used: { names: readonly string[]; schema: z.ZodType }[] = [];
  for (const [schema, names] of namesOf) {
    const original = schema.safeParse.bind(schema);
    Object.defineProperty(schema, 'safeParse', {
      configurable: true,
      value: (data: unknown, params?: never) => {
        used.push({ names, schema });
        return original(data, params);
      },
    });
  }
  const found = new Map<string, RouteSchema>();
  try {
    for (const route of f.routes) {
      const tries = /:[A-Za-z_]/.test(route.url) ? f.pools.ids : ['x'];
      for (const id of tries) {
        used.length = 0;
        const res = await f.send('admin', { method: route.method, url: fillUrl(route.url, [id]), headers: { 'x-requested-with': 'opsdeck', ...(hasBody(route.method) ? { 'content-type': 'application/json' } : {}) }, payload: hasBody(route.method) ? '{}' : undefined });
        // A probe may sign the admin out or change rows: put the actors back before the next.
        if (res.status < 400) await f.restoreActors();
        if (used.length) {
          found.set(`${route.method} ${route.url}`, { ...used[0]!, in: hasBody(route.method) ? 'body' : 'query' });
          break;
        }
      }
    }
  } finally {
    for (const schema of namesOf.keys()) delete (schema as { safeParse?: unknown }).safeParse;
  }
  return found;
}
