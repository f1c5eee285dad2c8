import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';

/** One row of `live_events` as streams send it. `seq` is the row's id. */
export interface LiveEvent {
  seq: number;
  at: string;
  kind: string;
  data: Record<string, unknown>;
}

/** What a stream gets: new events, and the cursor that is safe to resume from after them. */
export type LiveListener = (events: LiveEvent[], cursor: number) => void;

export const LIVE_CHANNEL = 'opsdeck_live';
/** How long a missing id is waited for: a transaction that took its id and has not committed yet. */
const GAP_WAIT_MS = 30_000;
const READ_LIMIT = 1_000;
/** A resume further behind than this many events starts over (the tab refetches what it shows). */
const REPLAY_LIMIT = 2_000;

interface Row {
  id: string | number;
  at: Date | string;
  kind: string;
  data: Record<string, unknown>;
}

const toEvent = (row: Row): LiveEvent => ({ seq: Number(row.id), at: new Date(row.at).toISOString(), kind: row.kind, data: row.data });

/**
 * The one reader of `live_events` in this process: it listens on `opsdeck_live` (PostgreSQL:
 * LISTEN on its own connection, so a change any replica commits reaches every replica; PGlite:
 * in-process) and hands each new row to every open stream.
 *
 * Ids come from a sequence, taken when a row is inserted, not when its transaction commits: id
 * 11 may be seen before id 10. An id skipped over is remembered as a gap and read again on later
 * notifications for GAP_WAIT_MS (a rolled-back transaction leaves a gap for good). The cursor a
 * stream resumes from stays below the oldest open gap, so a late row is never skipped by a resume;
 * rows sent twice that way are told apart by `seq`.
 */
export class LiveHub {
  private last = 0;
  private gaps = new Map<number, number>();
  private listeners = new Set<LiveListener>();
  private reading: Promise<void> | null = null;
  private again = false;
  private stopListening: (() => Promise<void>) | undefined;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  async start(): Promise<void> {
    const [row] = await this.database.query<{ id: string | number | null }>('select max(id) as id from live_events');
    this.last = Number(row?.id ?? 0);
    this.stopListening = await this.database.listen(LIVE_CHANNEL, () => this.read(), () => this.read());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.stopListening?.();
    await this.reading?.catch(() => undefined);
  }

  /** The id a stream may resume from having seen everything the hub has handed out. */
  cursor(): number {
    let lowest = this.last + 1;
    for (const id of this.gaps.keys()) if (id < lowest) lowest = id;
    return lowest - 1;
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get streams(): number {
    return this.listeners.size;
  }

  /** Reads what is new; notifications arriving meanwhile make one more read, not one each. */
  read(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      try {
        do {
          this.again = false;
          await this.readOnce();
        } while (this.again && !this.stopped);
      } catch (error) {
        this.log.warn({ err: error }, 'Could not read live events');
      } finally {
        this.reading = null;
      }
    })();
    return this.reading;
  }

  private async readOnce(): Promise<void> {
    const nowMs = this.now();
    for (const [id, since] of this.gaps) if (nowMs - since > GAP_WAIT_MS) this.gaps.delete(id);
    const gaps = [...this.gaps.keys()];
    const rows = await this.database.query<Row>(
      gaps.length
        ? 'select id, at, kind, data from live_events where id > $1 or id = any($3::bigint[]) order by id limit $2'
        : 'select id, at, kind, data from live_events where id > $1 order by id limit $2',
      gaps.length ? [this.last, READ_LIMIT, gaps] : [this.last, READ_LIMIT],
    );
    if (!rows.length) return;
    const events: LiveEvent[] = [];
    for (const row of rows) {
      const event = toEvent(row);
      if (this.gaps.delete(event.seq)) {
        events.push(event);
        continue;
      }
      if (event.seq <= this.last) continue;
      // Ids skipped over: rows still being written. Past a thousand (a big rolled-back
      // statement), only the newest are waited for.
      for (let id = Math.max(this.last + 1, event.seq - 1_000); id < event.seq; id++) this.gaps.set(id, nowMs);
      this.last = event.seq;
      events.push(event);
    }
    if (rows.length === READ_LIMIT) this.again = true;
    if (!events.length) return;
    const cursor = this.cursor();
    for (const listener of this.listeners) {
      try {
        listener(events, cursor);
      } catch (error) {
        this.log.warn({ err: error }, 'A live stream failed to take events');
      }
    }
  }

  /**
   * The events after `after` still kept, for a stream that resumes; 'reset' when some are gone
   * (pruned, too many, or a database that is not the one the id came from): the tab then
   * refetches everything it shows.
   */
  async replay(after: number): Promise<LiveEvent[] | 'reset'> {
    const rows = await this.database.query<Row>('select id, at, kind, data from live_events where id > $1 order by id limit $2', [after, REPLAY_LIMIT + 1]);
    if (rows.length > REPLAY_LIMIT) return 'reset';
    const [bounds] = await this.database.query<{ lo: string | number | null; hi: string | number | null }>('select min(id) as lo, max(id) as hi from live_events');
    const lo = bounds?.lo == null ? null : Number(bounds.lo);
    const hi = bounds?.hi == null ? null : Number(bounds.hi);
    if (after > Math.max(hi ?? 0, this.last)) return 'reset';
    if (lo === null ? after < this.last : after < lo - 1) return 'reset';
    return rows.map(toEvent);
  }
}

/** Deletes events older than the retention (the leader, once a minute). */
export class LiveRetention {
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly database: Database,
    private readonly minutes: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async prune(): Promise<void> {
    await this.database.query(`delete from live_events where at < now() - make_interval(mins => $1::int)`, [this.minutes]);
  }

  start(): void {
    const run = () => void this.prune().catch((error) => this.log.warn({ err: error }, 'Could not prune live events'));
    run();
    this.timer = setInterval(run, 60_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
