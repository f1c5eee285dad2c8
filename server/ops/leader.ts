import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { LeaderSettings } from '../config';
import type { Database, Db } from '../db/client';
import { LEADER_LOCK_KEY } from './leader-lock';
import { OutageNotice, type OutageLogger } from './outage';

export interface LeaderLogger extends OutageLogger {
  info: (obj: object, msg: string) => void;
}

/**
 * A background loop that only the leader runs (docs/architecture.md "Replicas"). `start` is
 * called when this process becomes the leader, `stop` when it stops being one (it lost its lock
 * or its connection, or the app closes): stop must end the work at once — cut requests short,
 * finish at most the step under way — and may be followed by another start later.
 */
export interface LeaderTask {
  name: string;
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

/** Leader-only database work that must not run twice at once (the evaluator's ticks). */
export interface WorkGate {
  /**
   * Runs `fn` in a transaction when this process leads, fenced: on PostgreSQL the transaction
   * first takes a transaction-level lock (ticks of two processes never interleave, even around a
   * takeover) and then checks that this process's leader connection still holds the leader lock,
   * so a process that lost it without noticing yet does nothing.
   */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
}

/** The second key, for the evaluator's per-tick transaction lock (not the leader lock itself). */
const TICK_LOCK_KEY = '7311852963002';

/**
 * The one place background work starts (docs/architecture.md "Replicas"). Every process serves
 * the UI and the API; only the leader runs the tasks added here.
 *
 * PGlite is one process (one data folder, one process): it is always the leader. On PostgreSQL
 * the leader is the process holding a session-level advisory lock (LEADER_LOCK_KEY) on a
 * connection of its own. That connection is the lease: it runs a heartbeat every `heartbeatMs`,
 * and PostgreSQL ends it after `leaseMs` of silence, so a killed, frozen or cut-off leader loses
 * the lock by itself. The other processes try to take the lock on every heartbeat. A leader whose
 * connection errors, or whose heartbeat does not come back in time, stops every task at once
 * before it tries again.
 */
export class LeaderGate implements WorkGate {
  private readonly tasks: LeaderTask[] = [];
  private leading = false;
  private running = false;
  private client: pg.Client | null = null;
  private backendPid: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  private lastBeatAt = 0;
  private campaigning: Promise<void> | null = null;
  /** Starts and stops of tasks run one after another, in order. */
  private transitions: Promise<void> = Promise.resolve();
  private readonly outage: OutageNotice;
  private changeListeners: ((leading: boolean) => void)[] = [];
  /** When this process last became the leader (ms), or null. */
  leaderSince: number | null = null;
  /** How this process names itself to PostgreSQL and in readiness: host/pid. */
  readonly name: string;

  constructor(
    private readonly database: Database,
    readonly settings: LeaderSettings,
    private readonly log: LeaderLogger,
    name = `opsdeck ${hostname()}/${process.pid}`,
  ) {
    this.name = name.slice(0, 63);
    this.outage = new OutageNotice(log, 'The leader election', settings.heartbeatMs);
  }

  get kind(): Database['kind'] {
    return this.database.kind;
  }

  /** Whether this process leads now (runs the tasks). */
  get isLeader(): boolean {
    return this.leading;
  }

  /**
   * Adds leader-only work. Added before start(), it starts with leadership; added later to a
   * leading gate, it starts at once.
   */
  add(task: LeaderTask): void {
    this.tasks.push(task);
    if (this.leading) this.enqueue(async () => this.startTask(task));
  }

  /** Called with true when this process becomes the leader and false when it stops being one. */
  onChange(listener: (leading: boolean) => void): void {
    this.changeListeners.push(listener);
  }

  /** Starts campaigning; resolves after the first attempt (on PGlite: leading, tasks started). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (this.database.kind === 'pglite') {
      this.become(true);
      await this.transitions;
      return;
    }
    await this.campaign();
    await this.transitions;
  }

  /** Stops the tasks (when leading), gives up the lock and closes the connection. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.campaigning;
    this.become(false);
    await this.transitions;
    await this.dropConnection();
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    if (!this.leading) return { ran: false };
    if (this.database.kind === 'pglite') return { ran: true, value: await this.database.db.transaction((tx) => fn(tx as unknown as Db)) };
    const pid = this.backendPid;
    const outcome = await this.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${TICK_LOCK_KEY}::bigint)`);
      const held = await tx.execute<{ held: boolean }>(sql`
        select exists (
          select 1 from pg_locks
          where pid = ${pid} and locktype = 'advisory' and granted and objsubid = 1
            and classid::bigint = (${LEADER_LOCK_KEY}::bigint >> 32) and objid::bigint = (${LEADER_LOCK_KEY}::bigint & 4294967295)
        ) as held`);
      if (!held.rows[0]?.held) return { ran: false as const };
      return { ran: true as const, value: await fn(tx as unknown as Db) };
    });
    if (!outcome.ran && this.leading) {
      this.log.warn({}, 'This process no longer holds the leader lock; stopping leader work');
      this.lose();
    }
    return outcome;
  }

  // ---- PostgreSQL campaign -------------------------------------------------------------------

  private schedule(delayMs: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.campaign();
    }, delayMs);
    this.timer.unref?.();
  }

  /** One heartbeat (leader) or one attempt to take the lock (everyone else). */
  private campaign(): Promise<void> {
    this.campaigning ??= this.attempt().finally(() => {
      this.campaigning = null;
      this.schedule(this.outage.failing ? this.outage.backoffMs() : this.settings.heartbeatMs);
    });
    return this.campaigning;
  }

  private async attempt(): Promise<void> {
    try {
      const client = this.client ?? (await this.connect());
      if (this.leading) {
        // The heartbeat: also proves the lock is still ours (a DBA's pg_advisory_unlock_all, …).
        const { rows } = await client.query<{ held: boolean }>(
          `select exists (select 1 from pg_locks where pid = pg_backend_pid() and locktype = 'advisory' and granted and objsubid = 1
             and classid::bigint = ($1::bigint >> 32) and objid::bigint = ($1::bigint & 4294967295)) as held`,
          [LEADER_LOCK_KEY],
        );
        if (!rows[0]?.held) {
          this.log.warn({}, 'The leader lock is gone from this process’s connection; stopping leader work');
          this.lose();
          return;
        }
        this.beat();
      } else {
        const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1::bigint) as ok', [LEADER_LOCK_KEY]);
        if (rows[0]?.ok && this.running) {
          this.beat();
          this.become(true);
        }
      }
      this.outage.ok();
    } catch (error) {
      this.outage.failed(error);
      this.lose();
    }
  }

  private async connect(): Promise<pg.Client> {
    const options = (this.database.db as unknown as { $client: pg.Pool }).$client.options as pg.ClientConfig;
    const client = new pg.Client({
      ...options,
      application_name: this.name,
      keepAlive: true,
      connectionTimeoutMillis: this.settings.leaseMs,
      // A heartbeat that hangs (a cut network) fails after the lease instead of never.
      query_timeout: this.settings.leaseMs,
    });
    client.on('error', (error) => {
      if (this.client !== client) return;
      this.outage.failed(error);
      this.lose();
    });
    await client.connect();
    // The lease on PostgreSQL's side: a leader silent for leaseMs loses its connection and the
    // lock with it. (Supported from PostgreSQL 14; older servers rely on TCP keepalives.)
    await client.query(`set idle_session_timeout = ${Math.round(this.settings.leaseMs)}`).catch(() => undefined);
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    this.client = client;
    this.backendPid = Number(rows[0]!.pid);
    return client;
  }

  /** A heartbeat came back: the lease runs for another leaseMs from now. */
  private beat(): void {
    this.lastBeatAt = Date.now();
    if (this.leaseTimer) clearTimeout(this.leaseTimer);
    // Independent of the query: a heartbeat that never returns must not keep us leading.
    this.leaseTimer = setTimeout(() => {
      this.leaseTimer = null;
      if (this.leading) {
        this.log.warn({ lastBeatAt: new Date(this.lastBeatAt).toISOString() }, 'No heartbeat within the lease; stopping leader work');
        this.lose();
      }
    }, this.settings.leaseMs);
    this.leaseTimer.unref?.();
  }

  /** Leadership is gone or in doubt: stop the work now, and start over on a fresh connection. */
  private lose(): void {
    this.become(false);
    void this.dropConnection();
  }

  private async dropConnection(): Promise<void> {
    if (this.leaseTimer) clearTimeout(this.leaseTimer);
    this.leaseTimer = null;
    const client = this.client;
    this.client = null;
    this.backendPid = null;
    // Ending the connection releases the lock on PostgreSQL's side.
    if (client) await client.end().catch(() => undefined);
  }

  // ---- Tasks ---------------------------------------------------------------------------------

  private become(leading: boolean): void {
    if (this.leading === leading) return;
    this.leading = leading;
    this.leaderSince = leading ? Date.now() : null;
    if (leading) this.log.info({ name: this.name }, this.database.kind === 'pglite' ? 'Running background work (embedded database)' : 'This process is the leader: running background work');
    else if (this.database.kind === 'postgres' && this.running) this.log.warn({ name: this.name }, 'This process is no longer the leader: background work stopped');
    const tasks = [...this.tasks];
    this.enqueue(async () => {
      if (leading) for (const task of tasks) await this.startTask(task);
      else await Promise.all(tasks.map((task) => task.stop().catch((error) => this.log.error({ err: error, task: task.name }, 'A background task did not stop cleanly'))));
    });
    for (const listener of this.changeListeners) {
      try {
        listener(leading);
      } catch (error) {
        this.log.error({ err: error }, 'A leadership listener failed');
      }
    }
  }

  private async startTask(task: LeaderTask): Promise<void> {
    // Leadership may have gone while earlier tasks started.
    if (!this.leading) return;
    try {
      await task.start();
    } catch (error) {
      this.log.error({ err: error, task: task.name }, 'A background task did not start');
    }
  }

  private enqueue(step: () => Promise<void>): void {
    this.transitions = this.transitions.then(step, step);
  }
}

/** A gate for code run outside an app (tests, benchmarks): always leads, plain transactions. */
export function alwaysLeads(database: Database): WorkGate {
  return { transaction: async (fn) => ({ ran: true, value: await database.db.transaction((tx) => fn(tx as unknown as Db)) }) };
}
