import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/app';
import { hashPassword } from '../../server/auth/password';
import { testConfig, type Config } from '../../server/config';
import { migrationsHash, openDatabase, type Database } from '../../server/db/client';
import { users } from '../../server/db/schema';
import { endpoints, type ApiRoute, type EndpointName } from '../../server/contract/api-routes';
import type { Role } from '../../server/contract/permissions';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh database on one backend: in-memory PGlite, or a new database on the PostgreSQL server. */
export interface Backend {
  name: 'pglite' | 'postgres';
  /** `url`: the new database's connection string (PostgreSQL only). */
  open: () => Promise<{ database: Database; drop: () => Promise<void>; url?: string }>;
}

/** One statement on the test server's maintenance database (create or drop a database of a test's own). */
export async function adminQuery(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const withDatabase = (name: string) => {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

let template: Promise<string> | undefined;

/**
 * A database on the test server made by exactly this tree's migrations, marked as a template: a
 * test's database is a copy of it (CREATE DATABASE … TEMPLATE), as the in-memory PGlite databases
 * start from a migrated copy (server/db/client.ts) — running 27 migrations for each of a few
 * hundred test databases was most of their cost. Made once per set of migrations, under an
 * advisory lock so test processes started together make it once (one per set of migrations is
 * kept: worktrees with other migrations may be using theirs). Tests of
 * migrating itself open their databases with openDatabase, not through here.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const name = `opsdeck_template_${migrationsHash()}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock(7311852963101)');
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1 and datistemplate', [name]);
      if (!rowCount) {
        // One left half-made by a process that died while making it.
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.query(`CREATE DATABASE ${name}`);
        const database = await openDatabase({ databaseUrl: withDatabase(name) });
        await database.close();
        await admin.query(`ALTER DATABASE ${name} IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      }
    } finally {
      await admin.query('select pg_advisory_unlock(7311852963101)').catch(() => undefined);
      await admin.end();
    }
    return name;
  })();
  return template;
}

export async function backends(): Promise<Backend[]> {
  const list: Backend[] = [
    {
      name: 'pglite',
      open: async () => {
        const database = await openDatabase({});
        return { database, drop: () => database.close() };
      },
    },
  ];
  if (await postgresReachable()) {
    list.push({
      name: 'postgres',
      open: async () => {
        const name = `opsdeck_test_${randomBytes(6).toString('hex')}`;
        const template = await migratedTemplate();
        const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        await admin.end();
        const url = withDatabase(name);
        const database = await openDatabase({ databaseUrl: url });
        return {
          database,
          url,
          drop: async () => {
            await database.close();
            const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
            await c.connect();
            await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            await c.end();
          },
        };
      },
    });
  } else {
    console.warn(`PostgreSQL at ${TEST_DATABASE_URL} is not reachable: the PostgreSQL half of the API tests is skipped.`);
  }
  return list;
}

/**
 * An answer as its endpoint's declared response schema reads it: one that does not match throws,
 * and a field the schema does not name is dropped, so `expect(asDeclared(name, body)).toEqual(body)`
 * holds the declaration to exactly what was answered.
 */
export function asDeclared(name: EndpointName, body: unknown): unknown {
  const schema = (endpoints[name] as ApiRoute).response;
  if (!schema) throw new Error(`${name} declares no response schema`);
  return schema.parse(body);
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  close: () => Promise<void>;
  /** app.inject with the cross-site header and an optional session cookie. */
  call: (method: InjectOptions['method'], url: string, options?: { cookie?: string; body?: unknown; headers?: Record<string, string>; raw?: string }) => Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  addUser: (u: { role: Role; email?: string; username?: string; password?: string; status?: 'active' | 'suspended' }) => Promise<{ _id: string; email: string; password: string }>;
  signIn: (email: string, password: string) => Promise<string>;
  count: (table: string) => Promise<number>;
}

let seq = 0;

export async function startTestApp(backend: Backend, overrides: Partial<Config> = {}, hooks: { beforeReady?: (app: FastifyInstance) => void } = {}): Promise<TestApp> {
  const { database, drop } = await backend.open();
  const app = await buildApp(testConfig({ signinRateLimit: 10_000, ...overrides }), { database });
  hooks.beforeReady?.(app);
  await app.ready();
  const call: TestApp['call'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = { 'x-requested-with': 'opsdeck', ...(options.headers ?? {}) };
    if (options.cookie) headers.cookie = options.cookie;
    let payload: string | undefined;
    if (options.raw !== undefined) {
      payload = options.raw;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await app.inject({ method, url, headers, payload });
    let body: unknown = undefined;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, body, headers: res.headers };
  };
  const signIn = async (email: string, password: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck', 'content-type': 'application/json' }, payload: JSON.stringify({ email, password }) });
    if (res.statusCode !== 200) throw new Error(`signin ${email}: ${res.statusCode} ${res.body}`);
    const cookie = res.cookies.find((c) => c.name === 'opsdeck_session');
    return `opsdeck_session=${cookie!.value}`;
  };
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await drop();
    },
    call,
    signIn,
    async addUser({ role, email, username, password = 'pw-123456', status = 'active' }) {
      const n = ++seq;
      const e = email ?? `${role}${n}@example.com`;
      const [row] = await database.db
        .insert(users)
        .values({ username: username ?? `${role}${n}`, email: e, phonenumber: `+1 555 ${String(n).padStart(4, '0')}`, passwordHash: await hashPassword(password), role, status })
        .returning();
      return { _id: row!.id, email: e, password };
    },
    async count(table) {
      const rows = await database.query<{ n: string | number }>(`SELECT count(*)::int AS n FROM ${table}`);
      return Number(rows[0]?.n ?? 0);
    },
  };
}
