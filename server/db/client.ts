import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { paths } from '../paths';
import { makeDataDirPrivate } from './private-dir';
import { lockDataDir } from './data-lock';
import { paceStatements } from './pglite-turns';
import * as schema from './schema';

export const migrationsFolder = paths.migrations;

/** Both drivers expose the same query builder; the node-postgres type stands for both. */
export type Db = ReturnType<typeof drizzlePg<typeof schema>>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Raw SQL for tests and benchmarks (seeding, counting). */
  query: <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;
  close: () => Promise<void>;
  /**
   * Calls `onNotify` for each NOTIFY on `channel` (after the notifying transaction commits), and
   * `onResumed` after a lost PostgreSQL connection is back (notifications sent meanwhile are
   * gone: the caller reads what it missed). PGlite: in-process. Answers the way to stop.
   */
  listen: (channel: string, onNotify: () => void, onResumed?: () => void) => Promise<() => Promise<void>>;
  /** The embedded database itself (backups dump it: server/backup). */
  pglite?: PGlite;
  /** The embedded database's data folder, whose free space says whether the disk is full (server/ops/faults.ts). */
  dataDir?: string;
  /** PostgreSQL: the pool's counts now, to tell a full pool from a database that does not answer. */
  poolCounts?: () => { total: number; idle: number; waiting: number; max: number };
}

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite data folder; undefined means in memory. */
  dataDir?: string;
  /** PostgreSQL pool: connections (10) and how long a query waits for one (10 s). */
  poolMax?: number;
  poolTimeoutMs?: number;
}

/** The advisory lock replicas take around their migrations (LEADER_LOCK_KEY's neighbour, server/ops). */
const MIGRATION_LOCK_KEY = '7311852963000';

/**
 * Replicas started together on one PostgreSQL would run the same migrations at once, and all but
 * one would fail on the tables the first creates: each waits for a session lock (on a connection
 * of its own) while another migrates, then finds nothing left to do.
 */
async function migrateOnce(databaseUrl: string, migrate: () => Promise<void>): Promise<void> {
  const lock = new pg.Client({ connectionString: databaseUrl, application_name: 'opsdeck migrations' });
  lock.on('error', () => {});
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    await migrate();
  } finally {
    await lock.end().catch(() => undefined);
  }
}

/**
 * LISTEN on a connection of its own (a pooled one would be lent to queries and lose it). A cut
 * connection is made again, 1 s then up to 10 s apart, and `onResumed` runs once it listens again.
 */
async function listenOnPostgres(databaseUrl: string, channel: string, onNotify: () => void, onResumed?: () => void): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = 1_000;
  const connect = async (resumed: boolean): Promise<void> => {
    const c = new pg.Client({ connectionString: databaseUrl, application_name: 'opsdeck live', connectionTimeoutMillis: 10_000 });
    const lost = () => {
      if (stopped || client !== c) return;
      client = undefined;
      c.end().catch(() => undefined);
      retry = setTimeout(() => void connect(true).catch(() => undefined), delay);
      delay = Math.min(delay * 2, 10_000);
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      if (!resumed) {
        client = undefined;
        await c.end().catch(() => undefined);
        throw error;
      }
      lost();
      return;
    }
    delay = 1_000;
    if (resumed) onResumed?.();
  };
  await connect(false);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
    client = undefined;
  };
}

/** Opens PGlite (embedded) or PostgreSQL (DATABASE_URL) and applies the same migrations to either. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    // A database that does not answer at all (a cut network) fails a request after 10 s instead of holding it forever.
    const max = options.poolMax ?? 10;
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max, connectionTimeoutMillis: options.poolTimeoutMs ?? 10_000 });
    // An idle connection the server ends (a restart, a failover, pg_terminate_backend) is
    // dropped from the pool and replaced on the next query; unheard, it would end the process.
    pool.on('error', (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
    // A connection lent out (a transaction in progress, a delivery claim held while it sends)
    // that the server cuts between two statements emits 'error' on its client, and pg-pool only
    // listens while the client is idle: unheard, that error would end the process. The failure
    // reaches the code through its next query ("not queryable"), and pg-pool drops the client.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema });
    await migrateOnce(options.databaseUrl, () => migratePg(db, { migrationsFolder }));
    return {
      db,
      kind: 'postgres',
      query: async (sql, params) => (await pool.query(sql, params as unknown[])).rows,
      close: () => pool.end(),
      listen: (channel, onNotify, onResumed) => listenOnPostgres(options.databaseUrl!, channel, onNotify, onResumed),
      poolCounts: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    };
  }
  // Owner-only before anything is written into it, and the umask for what PGlite writes later (private-dir.ts).
  if (options.dataDir) makeDataDirPrivate(options.dataDir);
  // One process per data folder: the lock comes before PGlite touches a file (server/db/data-lock.ts).
  const lock = options.dataDir ? await lockDataDir(options.dataDir) : undefined;
  try {
    const client = options.dataDir ? await createPglite(pgliteDir(options.dataDir)) : await inMemoryPglite();
    // PGlite runs on this thread: queued statements must not hold timers and sockets (pglite-turns.ts).
    paceStatements(client);
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    // PGlite copies a new database's initdb files in as 0666 whatever the umask: made owner-only
    // here without a word (what was open before this start was said above).
    if (options.dataDir) makeDataDirPrivate(options.dataDir, () => {});
    return {
      db,
      kind: 'pglite',
      query: async (sql, params) => (await client.query(sql, params as unknown[])).rows as never,
      close: async () => {
        await client.close();
        await lock?.release();
      },
      listen: async (channel, onNotify) => {
        const stop = await client.listen(channel, () => onNotify());
        return () => stop();
      },
      pglite: client,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    };
  } catch (err) {
    await lock?.release();
    throw err;
  }
}

/**
 * An in-memory database (tests and benchmarks; the server always has a data folder) starts from
 * a copy of a freshly migrated one: initdb and 27 migrations cost ~2–3 s of CPU each time, and
 * the API tests open a few hundred databases (`npm test` spent minutes on it). The copy is made
 * once per set of migrations and kept in the OS temp folder under a hash of the migration files,
 * so every test process shares it; the migrator still runs after loading it (and finds nothing
 * to do). A copy that fails to load is made again.
 */
let template: Promise<Blob> | undefined;

async function inMemoryPglite(): Promise<PGlite> {
  template ??= migratedTemplate();
  try {
    return await createPglite(undefined, await template);
  } catch {
    template = migratedTemplate(true);
    return createPglite(undefined, await template);
  }
}

/** The dump of a freshly migrated database made once per set of migrations (see above); tests seed data folders from it. */
export const migratedDump = (): Promise<Blob> => (template ??= migratedTemplate());

async function migratedTemplate(fresh = false): Promise<Blob> {
  const file = join(tmpdir(), `opsdeck-pglite-template-${migrationsHash(sharedBuffers(), pgliteVersion())}.tar`);
  if (!fresh) {
    try {
      return new Blob([readFileSync(file)]);
    } catch {
      // Not made yet on this machine.
    }
  }
  const client = await createPglite();
  try {
    await migratePglite(drizzlePglite(client, { schema }) as never, { migrationsFolder });
    const dump = await client.dumpDataDir('none');
    const bytes = new Uint8Array(await dump.arrayBuffer());
    // Written beside and renamed: a process reading it never sees half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, bytes);
    renameSync(partial, file);
    return new Blob([bytes]);
  } finally {
    await client.close();
  }
}

/** A hash of the migration files (and of `extra`): names a database made by exactly these migrations. */
export function migrationsHash(...extra: string[]): string {
  const hash = createHash('sha256');
  for (const part of extra) hash.update(part).update('\0');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(migrationsFolder);
  return hash.digest('hex').slice(0, 24);
}

/** The installed PGlite's version (a template from another version is not loaded). */
function pgliteVersion(): string {
  try {
    const main = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    return (JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Where PGlite keeps its files inside DATA_DIR. */
export const pgliteDir = (dataDir: string) => join(dataDir, 'pglite');

/**
 * PGlite's buffer cache. Its pages live in PGlite's WebAssembly memory, which never gives a page
 * back once touched: initdb's 128 MB all become resident as soon as a day of metric history has
 * been read through them (1,000 hosts: docs/benchmarks.md "npm run bench -- scrape-vs-prometheus"). The data files stay in the
 * operating system's page cache, so a page that falls out of PGlite's buffers is read back with
 * one copy, not from disk. Set at every start (a server setting, not written to the folder);
 * PGLITE_SHARED_BUFFERS (PostgreSQL's units: `64MB`, `128MB`) overrides it.
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

function sharedBuffers(): string {
  const given = process.env.PGLITE_SHARED_BUFFERS?.trim();
  if (!given) return PGLITE_SHARED_BUFFERS;
  if (!/^\d+\s*(kB|MB|GB)$/.test(given)) throw new Error(`PGLITE_SHARED_BUFFERS must be a size such as 32MB, got '${given}'`);
  return given.replace(/\s+/g, '');
}

/**
 * PGlite with the extensions the schema uses, on a folder (undefined: in memory), optionally
 * loaded from a data-folder dump (a restore). Opens without migrating.
 */
export async function createPglite(dir?: string, loadDataDir?: Blob): Promise<PGlite> {
  if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return PGlite.create({
    dataDir: dir,
    extensions: { pg_trgm },
    loadDataDir,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers()}`],
  });
}

/**
 * Fixed SQL straight through the driver behind a top-level `db` (undefined for a transaction,
 * whose statements must stay on its connection): for statements every request makes, where
 * Drizzle's building and row mapping cost more CPU than the statement on PGlite (docs/decisions.md "The request
 * path every list pays").
 */
export function rawQueryOf(db: Db): (<T>(sql: string, params: unknown[]) => Promise<T[]>) | undefined {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (client instanceof PGlite) return async <T>(text: string, params: unknown[]) => (await client.query<T>(text, params)).rows;
  if (client instanceof pg.Pool) return async <T>(text: string, params: unknown[]) => (await client.query(text, params)).rows as T[];
  return undefined;
}
