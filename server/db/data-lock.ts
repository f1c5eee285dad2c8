import { mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * One process per data folder (issue 11 §4). Two PGlite instances on one folder both accept
 * writes and lose some at the next start, so whatever opens the embedded database takes this
 * lock first and keeps it until it closes the database.
 *
 * proper-lockfile holds the lock (an atomic mkdir of DATA_DIR/opsdeck.lock whose mtime the holder
 * refreshes); the holder's pid is in DATA_DIR/opsdeck.pid for the refusal's message. A lock
 * whose holder is gone (kill -9, power loss) is taken over at once when its pid no longer runs,
 * or after STALE_MS without a refresh (a pid since reused by another program). Every starter
 * takes a short gate lock around "look, take over, write the pid", so two starters racing for an
 * abandoned folder cannot both win.
 */
export const LOCK_NAME = 'opsdeck.lock';
export const PID_NAME = 'opsdeck.pid';
const GATE_NAME = 'opsdeck.lock-gate';
/** Without a refresh for this long the holder is gone (it refreshes every UPDATE_MS). Long, so a stalled event loop (PGlite's first initdb on a busy machine) is not taken for a dead process. */
const STALE_MS = 60_000;
const UPDATE_MS = 10_000;

export class DataDirLockedError extends Error {
  constructor(
    readonly pid: number | undefined,
    shownDir: string,
  ) {
    super(`another Opsdeck (pid ${pid ?? 'unknown'}) is using ${shownDir}`);
  }
}

/** Folders this process holds: opening one twice in one process is refused too, never taken over. */
const held = new Set<string>();

export interface DataDirLock {
  release: () => Promise<void>;
}

function readPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, PID_NAME), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A process with this pid runs (EPERM: it runs under another user). Our own pid is a previous life
 * of ours (a container restarted as pid 1). A zombie does not run: a holder killed with -9 whose
 * parent died before reaping it stays one for as long as pid 1 does not reap (many container
 * inits never do), yet signal 0 still reaches it.
 */
export function running(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !zombie(pid);
}

/** Linux: the state letter after the command's closing parenthesis in /proc/PID/stat is Z (zombie) or X (dead). Elsewhere: not known, so not a zombie. */
function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

function refreshedWithin(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < ms;
  } catch {
    return false;
  }
}

/**
 * Locks `dataDir` for this process or throws DataDirLockedError naming the holder's pid and the
 * folder as the operator gave it (`shownDir`, e.g. `./data`).
 */
export async function lockDataDir(dataDir: string, shownDir = dataDir, onLost: (err: Error) => void = defaultOnLost): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const key = realpathSync(dataDir);
  if (held.has(key)) throw new DataDirLockedError(process.pid, shownDir);
  const lockPath = join(dataDir, LOCK_NAME);
  // proper-lockfile keys its locks by the locked path: the folder's lock and the gate need two.
  const lock = () => lockfile.lock(join(dataDir, 'opsdeck'), { lockfilePath: lockPath, realpath: false, stale: STALE_MS, update: UPDATE_MS, onCompromised: onLost });
  const gate = await lockfile.lock(join(dataDir, 'opsdeck-gate'), {
    lockfilePath: join(dataDir, GATE_NAME),
    realpath: false,
    stale: 10_000,
    retries: { retries: 40, minTimeout: 50, maxTimeout: 500 },
    // Held for milliseconds; if a starter stalled past its staleness, the next one went ahead.
    onCompromised: () => {},
  });
  let release: () => Promise<void>;
  try {
    try {
      release = await lock();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      const holder = readPid(dataDir);
      if (holder !== undefined && running(holder) && refreshedWithin(lockPath, STALE_MS)) throw new DataDirLockedError(holder, shownDir);
      if (holder === undefined && refreshedWithin(lockPath, STALE_MS)) throw new DataDirLockedError(undefined, shownDir);
      // The holder is gone without unlocking (kill -9): take its lock over.
      rmSync(lockPath, { recursive: true, force: true });
      release = await lock();
    }
    writeFileSync(join(dataDir, PID_NAME), `${process.pid}\n`);
  } finally {
    await gate();
  }
  held.add(key);
  return {
    async release() {
      if (!held.delete(key)) return;
      if (readPid(dataDir) === process.pid) rmSync(join(dataDir, PID_NAME), { force: true });
      await release();
    },
  };
}

function defaultOnLost(err: Error): void {
  // Another process may have taken the folder over: writing on would be two writers again.
  console.error(`opsdeck: lost the lock on the data folder (${err.message}); stopping so that only one process writes to it.`);
  process.exit(1);
}
