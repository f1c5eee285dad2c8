import type { Database } from '../db/client';

interface Layout {
  keys: string[];
  index: Map<string, number>;
}

interface Pending {
  serverId: string;
  at: Date;
  values: (number | null)[];
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
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;

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
  async append(serverId: string, atMs: number, series: Record<string, number>): Promise<void> {
    const layout = await this.layout(serverId);
    let grew = false;
    for (const key of Object.keys(series)) {
      if (!layout.index.has(key)) {
        layout.index.set(key, layout.keys.length);
        layout.keys.push(key);
        grew = true;
      }
    }
    if (grew) {
      await this.database.query(
        'insert into metric_series (server_id, keys) values ($1, $2) on conflict (server_id) do update set keys = excluded.keys',
        [serverId, layout.keys],
      );
    }
    const values: (number | null)[] = new Array(layout.keys.length).fill(null);
    for (const [key, value] of Object.entries(series)) if (Number.isFinite(value)) values[layout.index.get(key)!] = value;
    this.pending.push({ serverId, at: new Date(atMs), values });
    if (this.pending.length >= 200) await this.flush();
  }

  /** Write everything queued. Safe to call concurrently: callers wait for the same write. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (!this.pending.length) return;
    const batch = this.pending.splice(0, this.pending.length);
    this.flushing = (async () => {
      const params: unknown[] = [];
      const rows = batch.map((p) => {
        // Text literals: the VALUES list's parameters are untyped, and drivers differ on arrays.
        params.push(p.serverId, p.at.toISOString(), `{${p.values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`);
        const n = params.length;
        return `($${n - 2}, $${n - 1}, $${n})`;
      });
      try {
        // A server deleted mid-batch makes its rows violate the foreign key: keep the rest.
        await this.database.query(
          `insert into metric_samples (server_id, ts, values)
           select v.server_id::uuid, v.ts::timestamptz, v.values::real[] from (values ${rows.join(', ')}) as v(server_id, ts, values)
           where exists (select 1 from servers s where s.id = v.server_id::uuid)
           on conflict do nothing`,
          params,
        );
      } finally {
        this.flushing = null;
      }
    })();
    await this.flushing;
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
    const rows = await this.database.query<Record<string, number | null>>(
      `select (floor(extract(epoch from ts) / $4) * $4)::float8 as t, ${selects}
       from metric_samples where server_id = $1 and ts >= $2 and ts <= $3
       group by 1 order by 1`,
      [serverId, new Date(start * 1000), new Date(toMs), step],
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

  /** Delete samples older than the retention; returns how many rows went. */
  async prune(olderThanMs: number): Promise<number> {
    const rows = await this.database.query<{ n: number }>(
      'with gone as (delete from metric_samples where ts < $1 returning 1) select count(*)::int as n from gone',
      [new Date(olderThanMs)],
    );
    return rows[0]?.n ?? 0;
  }

  /** Drop the cached layout of a deleted server (its rows go with the server by cascade). */
  forget(serverId: string): void {
    this.layouts.delete(serverId);
    this.pending = this.pending.filter((p) => p.serverId !== serverId);
  }
}
