/**
 * Faults that say what they are (issue 25 §7): a full disk, a read-only database or file system
 * and an exhausted connection pool are told apart from a bug and from an unreachable database.
 * Requests that meet one answer 503 with a stable `reason` (http/errors.ts), `/api/ready` reports
 * it (the `storage` check), and the leader raises the meta alert "Opsdeck cannot store changes"
 * (fault-watch.ts). Each fault clears by itself once it is over: no restart.
 *
 * What is known comes from two sides: errors met by requests and background writers (recorded
 * here, per database), and probes that look without waiting for an error — the free space of
 * the embedded database's folder, PostgreSQL's `transaction_read_only`, the pool's own counts.
 */
import { rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '../db/client';
import { databaseUnavailable } from '../db/unavailable';

export type FaultReason = 'disk_full' | 'read_only' | 'pool_exhausted';
/** Every reason a 503 may carry: the faults above, or a database that cannot be reached at all. */
export type UnavailableReason = FaultReason | 'database_unavailable';

/** What a person reads for each reason (the 503's message, readiness, the meta alert). */
export const FAULT_MESSAGES: Record<UnavailableReason, string> = {
  disk_full: 'The disk holding the database is full: changes cannot be stored until space is freed (reading still works)',
  read_only: 'The database is read-only: changes cannot be stored until it is writable again (reading still works)',
  pool_exhausted: 'Every database connection is in use: try again shortly',
  database_unavailable: 'The database is unavailable; try again shortly',
};

/** Below this much free space in the embedded database's folder the disk counts as full (a write needs whole 8 KB pages and WAL). */
export const MIN_FREE_BYTES = 1024 * 1024;

/**
 * Room kept aside in the data folder (a file of zeros, `space-reserve`) and given back when the
 * disk fills up, so the meta alert saying so can still be written: the database fails only the
 * writes that need a new page, and an alert row with its indexes needs a few.
 */
export const RESERVE_BYTES = 4 * 1024 * 1024;
export const RESERVE_FILE = 'space-reserve';

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The pool's own counts (PostgreSQL only), to tell a full pool from a server that does not answer. */
export interface PoolCounts {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/**
 * The fault an error stands for, or null (a bug, bad input, or not a database error at all).
 * `pool`: the pool's counts now, for a pg-pool connect timeout.
 */
export function classifyFault(error: unknown, pool?: PoolCounts): UnavailableReason | null {
  for (let e = error as ErrorLike | undefined, depth = 0; e && depth < 4; e = e.cause as ErrorLike | undefined, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : '';
    // 53100 disk_full (e.g. "could not extend file …: No space left on device"); ENOSPC from a file write of our own.
    if (code === '53100' || code === 'ENOSPC' || /No space left on device/i.test(message)) return 'disk_full';
    // 25006 read_only_sql_transaction (a standby, default_transaction_read_only); EROFS from the file layer.
    if (code === '25006' || code === 'EROFS' || /read-only file system|in a read-only transaction/i.test(message)) return 'read_only';
    // 53300 too_many_connections: the server's connection slots are used up.
    if (code === '53300' || /too many clients already|remaining connection slots are reserved/i.test(message)) return 'pool_exhausted';
    if (/timeout exceeded when trying to connect/i.test(message) && pool && pool.total >= pool.max && pool.idle === 0) return 'pool_exhausted';
  }
  return databaseUnavailable(error) ? 'database_unavailable' : null;
}

export interface Fault {
  reason: FaultReason;
  message: string;
  /** What was met (the database's words), for a person reading readiness or the alert. */
  detail: string;
  since: string;
  lastSeenAt: string;
}

interface Held {
  detail: string;
  since: number;
  lastSeen: number;
}

/**
 * The faults one process knows of, for one database. A fault met through an error is held for
 * `holdMs` after it was last met (a write that fails every few seconds keeps it); one a probe
 * can see is cleared as soon as the probe says it is over.
 */
export class FaultLog {
  private held = new Map<FaultReason, Held>();
  /** The reserve was given back to the database: the disk counts as full until there is room to keep it again. */
  private reserveReleased = false;

  constructor(
    readonly holdMs = 15_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** An error met somewhere: remembered when it is one of the faults. Returns its reason (or null). */
  record(error: unknown, pool?: PoolCounts): UnavailableReason | null {
    const reason = classifyFault(error, pool);
    if (reason && reason !== 'database_unavailable') this.seen(reason, String((error as ErrorLike)?.message ?? error));
    return reason;
  }

  seen(reason: FaultReason, detail: string): void {
    const now = this.now();
    const held = this.held.get(reason);
    this.held.set(reason, { detail: detail.slice(0, 300), since: held?.since ?? now, lastSeen: now });
  }

  /** A probe found the fault over. */
  cleared(reason: FaultReason): void {
    this.held.delete(reason);
  }

  current(): Fault[] {
    const now = this.now();
    const out: Fault[] = [];
    for (const [reason, h] of this.held) {
      if (now - h.lastSeen > this.holdMs) {
        this.held.delete(reason);
        continue;
      }
      out.push({ reason, message: FAULT_MESSAGES[reason], detail: h.detail, since: new Date(h.since).toISOString(), lastSeenAt: new Date(h.lastSeen).toISOString() });
    }
    return out;
  }

  /**
   * Look without waiting for an error: the embedded database's free space, PostgreSQL's
   * read-only setting, and the pool's counts. Each probe that can tell also clears its fault.
   */
  async probe(database: Database): Promise<void> {
    if (database.dataDir) {
      try {
        let free = await freeBytes(database.dataDir);
        if (this.reserveReleased && free >= 2 * RESERVE_BYTES && (await this.keepReserve(database.dataDir))) free -= RESERVE_BYTES;
        if (free < MIN_FREE_BYTES || this.reserveReleased) this.seen('disk_full', `${Math.round(free / 1024)} KB free in ${database.dataDir}`);
        else this.cleared('disk_full');
      } catch (error) {
        this.record(error);
      }
    }
    if (database.kind === 'postgres') {
      const pool = database.poolCounts?.();
      if (pool && pool.total >= pool.max && pool.idle === 0 && pool.waiting > 0) this.seen('pool_exhausted', `${pool.total} of ${pool.max} connections in use, ${pool.waiting} waiting`);
      else if (pool && pool.waiting === 0) this.cleared('pool_exhausted');
      try {
        const [row] = await database.query<{ ro: string }>(`select current_setting('transaction_read_only') as ro`);
        if (row?.ro === 'on') this.seen('read_only', 'PostgreSQL answers transaction_read_only = on (a standby, or default_transaction_read_only)');
        else this.cleared('read_only');
      } catch (error) {
        this.record(error, database.poolCounts?.());
      }
    }
  }

  /** Sets the reserve aside when there is room for it (at start, and once a full disk has room again). */
  async keepReserve(dataDir: string): Promise<boolean> {
    try {
      if ((await freeBytes(dataDir)) < 2 * RESERVE_BYTES) return false;
      await writeFile(join(dataDir, RESERVE_FILE), Buffer.alloc(RESERVE_BYTES), { mode: 0o600 });
      this.reserveReleased = false;
      return true;
    } catch {
      return false;
    }
  }

  /** Gives the reserve back (the disk is full): the room lets the meta alert be written. */
  async releaseReserve(dataDir: string): Promise<void> {
    if (this.reserveReleased) return;
    this.reserveReleased = true;
    await rm(join(dataDir, RESERVE_FILE), { force: true });
  }
}

async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return Number(s.bavail) * Number(s.bsize);
}

const logs = new WeakMap<Database, FaultLog>();

/** The fault log of one database object (every part of one app shares it). */
export function faultsOf(database: Database): FaultLog {
  let log = logs.get(database);
  if (!log) logs.set(database, (log = new FaultLog()));
  return log;
}
