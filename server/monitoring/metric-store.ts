import type { Database } from '../db/client';

/** Sample rows per INSERT (see flush). */
const SAMPLE_CHUNK = 25;

/** Seconds per rollup bucket. */
export const ROLLUP_S = 300;

interface Layout {
  keys: string[];
  index: Map<string, number>;
}

interface Pending {
  serverId: string;
  at: Date;
  values: (number | null)[];
}

/**
 * One scrape's chart values: by key, or (from the scrape worker) as columns — a key list that
 * only ever grows, and one value per key (NaN: none this scrape). The store maps the list onto
 * its layout once per list and length, not once per value.
 */
export type SeriesValues = Record<string, number> | { keys: readonly string[]; values: Float64Array };

/** A key list's columns in a server's layout, cached while the list neither changes nor grows. */
interface ColumnMap {
  keys: readonly string[];
  length: number;
  columns: Int32Array;
}

export interface SeriesWindow {
  /** Unix seconds, one per step from the aligned start of the range to its end. */
  timestamps: number[];
  /** One array per requested key, aligned with `timestamps`; null where no scrape landed. */
  values: (number | null)[][];
}

/**
 * The embedded metric store: chart series per server in PostgreSQL (PGlite by default). Each
 * scrape is one row holding every series value in the order of the server's layout, an
 * append-only list of series keys: a column index never changes meaning, and a series that
 * appears later (a new disk) just makes later arrays longer. Writes are buffered and flushed
 * as one multi-row insert so 200 servers cost a few statements a second, not hundreds.
 */
export class MetricStore {
  private layouts = new Map<string, Layout>();
  private columnMaps = new Map<string, ColumnMap>();
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  /** undefined: not read from the database yet. */
  private rolledUntilMs: number | null | undefined;

  constructor(private readonly database: Database) {}

  private async layout(serverId: string): Promise<Layout> {
    let layout = this.layouts.get(serverId);
    if (!layout) {
      const rows = await this.database.query<{ keys: string[] }>('select keys from metric_series where server_id = $1', [serverId]);
      const keys = rows[0]?.keys ?? [];
      layout = { keys, index: new Map(keys.map((k, i) => [k, i])) };
      this.layouts.set(serverId, layout);
    }
    return layout;
  }

  /** Queue one scrape's series values; `flush` (or the next append past the batch size) writes them. */
  async append(serverId: string, atMs: number, series: SeriesValues): Promise<void> {
    const layout = await this.layout(serverId);
    const columnar = 'keys' in series && series.values instanceof Float64Array;
    const keys = columnar ? (series.keys as readonly string[]) : Object.keys(series);
    let map = columnar ? this.columnMaps.get(serverId) : undefined;
    if (!map || map.keys !== keys || map.length !== keys.length) {
      let grew = false;
      const columns = new Int32Array(keys.length);
      keys.forEach((key, i) => {
        let column = layout.index.get(key);
        if (column === undefined) {
          column = layout.keys.length;
          layout.index.set(key, column);
          layout.keys.push(key);
          grew = true;
        }
        columns[i] = column;
      });
      if (grew) {
        await this.database.query(
          'insert into metric_series (server_id, keys) values ($1, $2) on conflict (server_id) do update set keys = excluded.keys',
          [serverId, layout.keys],
        );
      }
      map = { keys, length: keys.length, columns };
      if (columnar) this.columnMaps.set(serverId, map);
    }
    const values: (number | null)[] = new Array(layout.keys.length).fill(null);
    const { columns } = map;
    if (columnar) {
      const given = (series as { values: Float64Array }).values;
      for (let i = 0; i < given.length && i < columns.length; i++) {
        const v = given[i]!;
        if (Number.isFinite(v)) values[columns[i]!] = v;
      }
    } else {
      const byKey = series as Record<string, number>;
      keys.forEach((key, i) => {
        const v = byKey[key]!;
        if (Number.isFinite(v)) values[columns[i]!] = v;
      });
    }
    this.pending.push({ serverId, at: new Date(atMs), values });
    if (this.pending.length >= 200) await this.flush();
  }

  /**
   * Write everything queued, SAMPLE_CHUNK rows a statement with a turn of the event loop in
   * between: on PGlite each statement holds the API's thread until it ends (200 rows of ~70
   * values took ~70 ms of CPU). Safe to call concurrently: callers wait for the same write.
   */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (!this.pending.length) return;
    const batch = this.pending.splice(0, this.pending.length);
    this.flushing = (async () => {
      try {
        for (let i = 0; i < batch.length; i += SAMPLE_CHUNK) {
          if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
          await this.insert(batch.slice(i, i + SAMPLE_CHUNK));
        }
      } finally {
        this.flushing = null;
      }
    })();
    await this.flushing;
  }

  private async insert(batch: Pending[]): Promise<void> {
    const params: unknown[] = [];
    const rows = batch.map((p) => {
      // Text literals: the VALUES list's parameters are untyped, and drivers differ on arrays.
      params.push(p.serverId, p.at.toISOString(), `{${p.values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`);
      const n = params.length;
      return `($${n - 2}, $${n - 1}, $${n})`;
    });
    // A server deleted mid-batch makes its rows violate the foreign key: keep the rest.
    await this.database.query(
      `insert into metric_samples (server_id, ts, values)
       select v.server_id::uuid, v.ts::timestamptz, v.values::real[] from (values ${rows.join(', ')}) as v(server_id, ts, values)
       where exists (select 1 from servers s where s.id = v.server_id::uuid)
       on conflict do nothing`,
      params,
    );
  }

  /** The keys a server has ever reported, in layout order. */
  async keys(serverId: string): Promise<string[]> {
    return [...(await this.layout(serverId)).keys];
  }

  /**
   * The average of each key per step-wide bucket over [from, to]. Buckets are aligned to
   * multiples of the step so that refreshing a chart does not shift its points.
   */
  async query(serverId: string, keys: string[], fromMs: number, toMs: number, stepS: number): Promise<SeriesWindow> {
    await this.flush();
    const layout = await this.layout(serverId);
    const step = Math.max(1, Math.round(stepS));
    const start = Math.floor(fromMs / 1000 / step) * step;
    const end = Math.floor(toMs / 1000 / step) * step;
    const timestamps: number[] = [];
    for (let t = start; t <= end; t += step) timestamps.push(t);
    const values = keys.map(() => new Array<number | null>(timestamps.length).fill(null));
    const columns = keys.map((k) => layout.index.get(k));
    const known = columns.map((c, i) => [c, i] as const).filter(([c]) => c !== undefined) as [number, number][];
    if (!known.length || !timestamps.length) return { timestamps, values };
    // Column numbers come from our own layout (integers), never from the request.
    const selects = known.map(([c], j) => `avg(values[${c + 1}])::float8 as v${j}`).join(', ');
    // Steps of whole five-minute buckets read the rollups up to where they are written and raw
    // samples after that: a day is 288 rows instead of 5,760 scattered across the table.
    const rolledUntil = step % ROLLUP_S === 0 ? await this.rolledUntil() : null;
    const rows = await this.database.query<Record<string, number | null>>(
      rolledUntil === null
        ? `select (floor(extract(epoch from ts) / $4) * $4)::float8 as t, ${selects}
           from metric_samples where server_id = $1 and ts >= $2 and ts <= $3
           group by 1 order by 1`
        : `select (floor(extract(epoch from ts) / $4) * $4)::float8 as t, ${selects}
           from (
             select bucket as ts, values from metric_rollups where server_id = $1 and bucket >= $2 and bucket < $5 and bucket <= $3
             union all
             select ts, values from metric_samples where server_id = $1 and ts >= greatest($2::timestamptz, $5::timestamptz) and ts <= $3
           ) x
           group by 1 order by 1`,
      rolledUntil === null
        ? [serverId, new Date(start * 1000), new Date(toMs), step]
        : [serverId, new Date(start * 1000), new Date(toMs), step, new Date(rolledUntil)],
    );
    for (const row of rows) {
      const slot = Math.round(((row.t as number) - start) / step);
      if (slot < 0 || slot >= timestamps.length) continue;
      known.forEach(([, i], j) => {
        values[i]![slot] = row[`v${j}`] ?? null;
      });
    }
    return { timestamps, values };
  }

  /**
   * Where the rollups end (unix ms, a bucket boundary): every bucket before it is written.
   * Null when there is nothing to roll up yet.
   */
  async rolledUntil(): Promise<number | null> {
    if (this.rolledUntilMs === undefined) {
      const [last] = await this.database.query<{ t: number | null }>('select (extract(epoch from max(bucket)) * 1000)::float8 as t from metric_rollups');
      if (last?.t != null) this.rolledUntilMs = last.t + ROLLUP_S * 1000;
      else {
        const [first] = await this.database.query<{ t: number | null }>('select (extract(epoch from min(ts)) * 1000)::float8 as t from metric_samples');
        this.rolledUntilMs = first?.t != null ? Math.floor(first.t / (ROLLUP_S * 1000)) * ROLLUP_S * 1000 : null;
      }
    }
    return this.rolledUntilMs;
  }

  /**
   * Average the closed five-minute buckets not rolled up yet (at most `maxBuckets` per call) into
   * metric_rollups. A bucket counts as closed a minute after it ends, so late flushes land first.
   * Each bucket is averaged `serversPerChunk` servers at a time with a turn of the event loop in
   * between: PGlite runs in this process, and one statement over the whole fleet would hold
   * every request up for most of a second. Returns how many buckets were written.
   */
  async rollup(nowMs: number, maxBuckets = 3, serversPerChunk = 25): Promise<number> {
    await this.flush();
    const from = await this.rolledUntil();
    if (from === null) {
      this.rolledUntilMs = undefined; // samples may have arrived since: look again next time
      return 0;
    }
    const bucketMs = ROLLUP_S * 1000;
    const closed = Math.floor((nowMs - 60_000) / bucketMs) * bucketMs;
    const to = Math.min(closed, from + maxBuckets * bucketMs);
    if (to <= from) return 0;
    const ids = (await this.database.query<{ server_id: string }>('select server_id from metric_series order by server_id')).map((r) => r.server_id);
    for (let bucket = from; bucket < to; bucket += bucketMs) {
      for (let i = 0; i < ids.length; i += serversPerChunk) {
        await this.database.query(
          `insert into metric_rollups (server_id, bucket, values)
           select server_id, $1::timestamptz, array_agg(v order by idx) from (
             select s.server_id, u.idx, avg(u.v)::real as v
             from metric_samples s, unnest(s.values) with ordinality as u(v, idx)
             where s.server_id = any($3::uuid[]) and s.ts >= $1 and s.ts < $2
             group by 1, 2
           ) g
           group by 1
           on conflict (server_id, bucket) do update set values = excluded.values`,
          [new Date(bucket), new Date(bucket + bucketMs), ids.slice(i, i + serversPerChunk)],
        );
        await new Promise((resolve) => setImmediate(resolve));
      }
      this.rolledUntilMs = bucket + bucketMs;
    }
    return (to - from) / bucketMs;
  }

  /**
   * Delete samples and rollups older than the retention; returns how many sample rows went.
   * VACUUM afterwards: PGlite runs no autovacuum, and without it the freed space is never reused.
   */
  async prune(olderThanMs: number): Promise<number> {
    const rows = await this.database.query<{ n: number }>(
      'with gone as (delete from metric_samples where ts < $1 returning 1) select count(*)::int as n from gone',
      [new Date(olderThanMs)],
    );
    await this.database.query('delete from metric_rollups where bucket < $1', [new Date(olderThanMs)]);
    const n = rows[0]?.n ?? 0;
    if (n > 0) {
      await this.database.query('vacuum metric_samples');
      await this.database.query('vacuum metric_rollups');
    }
    return n;
  }

  /** Drop the cached layout of a deleted server (its rows go with the server by cascade). */
  forget(serverId: string): void {
    this.layouts.delete(serverId);
    this.columnMaps.delete(serverId);
    this.pending = this.pending.filter((p) => p.serverId !== serverId);
  }
}
