/**
 * `opsdeck backup FILE` and `opsdeck restore FILE` (README "Backup and restore").
 *
 * Embedded database: the file is PGlite's data folder as a gzipped tar, taken by the running
 * server (the only process that may open the folder) through its control socket, or read from
 * the folder directly when no server runs. PostgreSQL (DATABASE_URL): pg_dump's custom format,
 * restored with pg_restore, so the file is also an ordinary PostgreSQL dump.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { Config } from '../config';
import { createPglite, openDatabase, pgliteDir } from '../db/client';
import { lockDataDir } from '../db/data-lock';
import { makeDataDirPrivate } from '../db/private-dir';
import { backupFromRunningServer, serverStatus } from './control';

export class BackupError extends Error {}

/** A consistent dump of an open PGlite: a checkpoint, then the folder copied while no query runs. */
export async function dumpPglite(client: PGlite): Promise<Uint8Array> {
  // The copy is taken between statements (PGlite runs one at a time); with the write-ahead log
  // inside it, a restore recovers exactly the committed transactions. The checkpoint keeps that
  // recovery short.
  await client.exec('CHECKPOINT');
  const tar = await client.dumpDataDir('gzip');
  return new Uint8Array(await tar.arrayBuffer());
}

/** Written beside and renamed, so FILE is never half a backup; owner-only (it holds password hashes). */
function writeBackupFile(file: string, bytes: Uint8Array): void {
  const tmp = `${file}.${process.pid}.partial`;
  writeFileSync(tmp, bytes, { mode: 0o600 });
  renameSync(tmp, file);
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

export async function backup(config: Config, file: string, log: (line: string) => void): Promise<void> {
  const target = resolve(file);
  if (!existsSync(dirname(target))) throw new BackupError(`The folder ${dirname(target)} does not exist.`);
  if (config.databaseUrl) {
    pgTool('pg_dump', config.databaseUrl, ['--format=custom', '--no-owner', '--no-privileges', `--file=${target}.${process.pid}.partial`]);
    renameSync(`${target}.${process.pid}.partial`, target);
    log(`Backed up the PostgreSQL database (pg_dump custom format) to ${target}.`);
    return;
  }
  const fromServer = await backupFromRunningServer(config.dataDir);
  if (fromServer) {
    writeBackupFile(target, fromServer);
    log(`Backed up the running server's database (${mb(fromServer.length)}) to ${target}.`);
    return;
  }
  const dir = pgliteDir(config.dataDir);
  if (!existsSync(`${dir}/PG_VERSION`)) throw new BackupError(`There is no database in ${resolve(config.dataDir)} (DATA_DIR) to back up.`);
  // Owner-only like any opener leaves it (server/db/private-dir.ts), then the folder's lock: a
  // server the control socket did not reach (or one starting now) holds it.
  makeDataDirPrivate(config.dataDir);
  const lock = await lockDataDir(config.dataDir);
  try {
    const client = await createPglite(dir);
    try {
      const bytes = await dumpPglite(client);
      writeBackupFile(target, bytes);
      log(`No server runs on ${resolve(config.dataDir)}: backed up its database directly (${mb(bytes.length)}) to ${target}.`);
    } finally {
      await client.close();
    }
  } finally {
    await lock.release();
  }
}

export interface RestoreOptions {
  /** Replace a database that is already there (embedded: set aside, never deleted). */
  force: boolean;
}

const GZIP = [0x1f, 0x8b];
const PGDMP = Buffer.from('PGDMP');

export async function restore(config: Config, file: string, options: RestoreOptions, log: (line: string) => void): Promise<void> {
  const source = resolve(file);
  if (!existsSync(source)) throw new BackupError(`There is no file ${source}.`);
  const bytes = readFileSync(source);
  const isPgDump = bytes.subarray(0, PGDMP.length).equals(PGDMP);
  const isPglite = bytes[0] === GZIP[0] && bytes[1] === GZIP[1];
  if (config.databaseUrl) {
    if (!isPgDump) throw new BackupError(isPglite ? `${source} is a backup of the embedded database; DATABASE_URL is set, so this would restore into PostgreSQL. Unset DATABASE_URL to restore it into DATA_DIR.` : `${source} is not an Opsdeck backup (neither a pg_dump custom-format file nor an embedded-database backup).`);
    await restorePostgres(config.databaseUrl, source, options, log);
  } else {
    if (!isPglite) throw new BackupError(isPgDump ? `${source} is a PostgreSQL dump; set DATABASE_URL to the database to restore it into.` : `${source} is not an Opsdeck backup (neither an embedded-database backup nor a pg_dump custom-format file).`);
    await restorePglite(config.dataDir, source, bytes, options, log);
  }
  // A backup from an older Opsdeck gets this version's migrations now, not at the next start.
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    log(`Restored: ${await summary(database.query)}.`);
  } finally {
    await database.close();
  }
}

async function restorePglite(dataDir: string, source: string, bytes: Buffer, options: RestoreOptions, log: (line: string) => void): Promise<void> {
  const running = await serverStatus(dataDir);
  if (running) throw new BackupError(`Opsdeck (pid ${running.pid}) is running on ${resolve(dataDir)}: stop it first, then restore.`);
  makeDataDirPrivate(dataDir);
  // Held while the folder is swapped; a server starting meanwhile is refused by it.
  const lock = await lockDataDir(dataDir);
  try {
    await swapInPglite(dataDir, source, bytes, options, log);
  } finally {
    await lock.release();
  }
}

async function swapInPglite(dataDir: string, source: string, bytes: Buffer, options: RestoreOptions, log: (line: string) => void): Promise<void> {
  const dir = pgliteDir(dataDir);
  const occupied = existsSync(dir) && readdirSync(dir).length > 0;
  if (occupied && !options.force) throw new BackupError(`${resolve(dataDir)} (DATA_DIR) already holds a database. Restore into an empty DATA_DIR, or pass --force to set the current one aside (it is moved, not deleted).`);
  // Loaded beside the live folder and swapped in only once it opened and checked out.
  const staging = `${dir}.restoring-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    let client: PGlite;
    try {
      client = await createPglite(staging, new Blob([new Uint8Array(bytes)]));
    } catch (err) {
      throw new BackupError(`${source} could not be loaded as an embedded-database backup: ${err instanceof Error ? err.message : err}`);
    }
    try {
      const [found] = (await client.query<{ users: string | null }>(`select to_regclass('public.users')::text as users`)).rows;
      if (!found?.users) throw new BackupError(`${source} holds a PostgreSQL data folder, but not Opsdeck's (no users table).`);
    } finally {
      await client.close();
    }
    // PGlite writes a loaded folder's files as 0666 whatever the umask.
    makeDataDirPrivate(staging, () => {});
    if (occupied) {
      const aside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(dir, aside);
      log(`The database that was there is kept in ${aside}.`);
    } else {
      rmSync(dir, { recursive: true, force: true });
    }
    renameSync(staging, dir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`Restored ${source} into ${resolve(dataDir)}.`);
}

async function restorePostgres(databaseUrl: string, source: string, options: RestoreOptions, log: (line: string) => void): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')`);
    if (rows[0]!.n > 0) {
      if (!options.force) throw new BackupError('The database DATABASE_URL names is not empty. Stop every Opsdeck process on it and pass --force to replace its contents (take a backup of it first), or restore into an empty database.');
      // pg_restore --clean would drop only what the dump holds; tables of a newer Opsdeck would stay
      // and break the migrations that follow. Start from empty schemas instead.
      await client.query('drop schema if exists drizzle cascade; drop schema public cascade; create schema public;');
      log('Removed the current contents of the database.');
    }
  } finally {
    await client.end();
  }
  pgTool('pg_restore', databaseUrl, ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', source]);
  log(`Restored ${source} into the PostgreSQL database (pg_restore).`);
}

/** Runs pg_dump or pg_restore on DATABASE_URL; its password goes in PGPASSWORD, never on a command line `ps` shows. */
function pgTool(tool: 'pg_dump' | 'pg_restore', databaseUrl: string, args: string[]): void {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const env = password ? { ...process.env, PGPASSWORD: password } : process.env;
  const res = spawnSync(tool, [...args, `--dbname=${url.href}`], { env, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (res.error && (res.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new BackupError(`${tool} is not installed: install PostgreSQL's client tools (Debian: postgresql-client) of the server's major version or newer.`);
  }
  if (res.status !== 0) throw new BackupError(`${tool} failed: ${res.stderr.trim()}`);
}

type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

/** What a restored database holds, in one line. */
async function summary(query: Query): Promise<string> {
  const [row] = await query<{ users: number; servers: number; alerts: number; waiting: number }>(
    `select (select count(*)::int from users) as users, (select count(*)::int from servers) as servers,
            (select count(*)::int from alerts) as alerts, (select count(*)::int from alert_outbox where processed_at is null) as waiting`,
  );
  const n = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;
  return `${n(row!.users, 'user')}, ${n(row!.servers, 'server')}, ${n(row!.alerts, 'alert')}, ${n(row!.waiting, 'notification')} waiting to be sent`;
}
