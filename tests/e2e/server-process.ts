import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPglite, migratedDump, migrationsHash, pgliteDir } from '../../server/db/client';

export const ADMIN = { email: 'admin@opsdeck.test', password: 'e2e-admin-password', username: 'admin' };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Processes of a process group that have not exited (zombies waiting to be reaped are gone). */
export function liveGroupMembers(pgid: number): number[] {
  const live: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so split after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') live.push(Number(entry));
  }
  return live;
}

export interface StopResult {
  /** The server printed 'Opsdeck stopped cleanly.' */
  clean: boolean;
  /** From the signal until every process started for the server (npm, node) was gone. */
  ms: number;
  /** Processes still alive 5 s after the signal (then killed, so no test leaves one behind). */
  leftover: number[];
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  /**
   * Sends a signal to the started process only (npm's pid, or the binary's), as a process manager
   * does, and waits until every process of its group is gone.
   */
  stop: (signal?: NodeJS.Signals) => Promise<StopResult>;
}

export interface StartOptions {
  dataDir?: string;
  env?: Record<string, string>;
  /** Default `npm start --silent` in the checkout; the packaging test runs the installed binary. */
  command?: string[];
  cwd?: string;
  /** A port of the caller's choosing (a restart on the address an open page uses); default a free one. */
  port?: number;
  /**
   * The embedded database is made by this start, as on a first start anywhere (initdb and every
   * migration: ~4 s of CPU). Otherwise a data folder without one gets a copy of a freshly
   * migrated database first, which is what those 4 s would make (the server's migrator still
   * runs and finds nothing to do); the admin, the key and everything else are the server's own.
   */
  fresh?: boolean;
}

let migratedFolder: string | undefined;

/**
 * A freshly migrated embedded database as a folder, made once per set of migrations from the
 * in-memory databases' template (server/db/client.ts) and kept in the OS temp folder, so every
 * test process copies the same one (owner-only, as the server keeps its own).
 */
async function migratedDatabaseFolder(): Promise<string> {
  if (migratedFolder && existsSync(migratedFolder)) return migratedFolder;
  const folder = join(tmpdir(), `opsdeck-e2e-database-${migrationsHash()}`);
  if (!existsSync(folder)) {
    const partial = `${folder}.${process.pid}.partial`;
    rmSync(partial, { recursive: true, force: true });
    const client = await createPglite(partial, await migratedDump());
    await client.close();
    ownerOnly(partial);
    try {
      renameSync(partial, folder);
    } catch {
      // Another test process made it meanwhile.
      rmSync(partial, { recursive: true, force: true });
    }
  }
  return (migratedFolder = folder);
}

/** Folders 0700, files 0600: what the server makes its data folder (server/db/private-dir.ts). */
function ownerOnly(path: string): void {
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const p = join(path, entry.name);
    if (entry.isDirectory()) ownerOnly(p);
    else chmodSync(p, 0o600);
  }
  chmodSync(path, 0o700);
}

/** Gives a data folder without an embedded database a copy of a freshly migrated one. */
async function seedDatabase(dataDir: string): Promise<void> {
  const target = pgliteDir(dataDir);
  if (existsSync(target)) return;
  cpSync(await migratedDatabaseFolder(), target, { recursive: true });
  ownerOnly(target);
}

/**
 * Starts the console exactly as `npm start` does, on a free port and a fresh data folder (its
 * database already migrated unless `fresh`).
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'opsdeck-e2e-'));
  if (!options.fresh && !(options.env?.DATABASE_URL ?? process.env.DATABASE_URL)) await seedDatabase(dataDir);
  let out = '';
  const [cmd, ...args] = options.command ?? ['npm', 'start', '--silent'];
  const child = spawn(cmd!, args, {
    cwd: options.cwd,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_USERNAME: ADMIN.username,
      DEMO_FLEET: '0',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stop() can tell whether anything it started outlives the signal.
    detached: true,
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer within 120 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    port,
    dataDir,
    child,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      const pgid = child.pid!;
      const t0 = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      let live = liveGroupMembers(pgid);
      while (live.length && Date.now() - t0 < 5000) {
        await new Promise((r) => setTimeout(r, 20));
        live = liveGroupMembers(pgid);
      }
      const ms = Date.now() - t0;
      if (live.length) {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      // The last lines may still be in the pipe when the process is gone.
      await new Promise((r) => setTimeout(r, 50));
      return { clean: out.includes('stopped cleanly'), ms, leftover: live };
    },
  };
}
