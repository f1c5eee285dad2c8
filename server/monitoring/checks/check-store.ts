import type { CheckHistory, CheckResult, CheckUptime, UptimeDay } from '../../contract/checks';
import type { Database } from '../../db/client';
import type { ProbeResult } from './probe';

/** Rollup rows are kept this long: the uptime bars show 90 days. */
export const ROLLUP_RETENTION_DAYS = 92;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface QueuedResult {
  checkId: string;
  atMs: number;
  result: ProbeResult;
}

/** A share up in percent to three decimals, or null when nothing ran. */
export const pct = (up: number, total: number) => (total > 0 ? Math.round((up / total) * 100_000) / 1000 : null);

/** Where uptime24h's window starts: 24 whole hours before the current one. */
export const uptime24hSince = (nowMs: number) => new Date(Math.floor(nowMs / HOUR_MS) * HOUR_MS - 24 * HOUR_MS);

/**
 * Where check results go (issue 16, docs/checks.md "Storage"): the latest on the check's row, every
 * result in check_samples for CHECK_RETENTION_HOURS, and per-hour and per-day sums upserted in the
 * same write, so 90-day uptime never waits for a roll-up job. Results are queued and written in
 * batches (one statement per table per batch, whatever its size).
 */
export class CheckStore {
  private pending: QueuedResult[] = [];
  private flushing: Promise<number> | null = null;

  constructor(private readonly database: Database) {}

  queue(r: QueuedResult): void {
    this.pending.push(r);
  }

  get queued(): number {
    return this.pending.length;
  }

  /** Writes everything queued; resolves with how many results were written. Concurrent calls wait for each other. */
  async flush(): Promise<number> {
    while (this.flushing) await this.flushing;
    if (!this.pending.length) return 0;
    const batch = this.pending.splice(0, this.pending.length);
    this.flushing = this.write(batch).finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async write(batch: QueuedResult[]): Promise<number> {
    const rows = batch.map((b) => ({
      check_id: b.checkId,
      ts: new Date(b.atMs).toISOString(),
      up: b.result.up,
      latency: b.result.latencyMs,
      status: b.result.statusCode,
      days: b.result.certExpiresAt ? (b.result.certExpiresAt.getTime() - b.atMs) / DAY_MS : null,
      error: b.result.error?.slice(0, 500) ?? null,
      cert_expires_at: b.result.certExpiresAt?.toISOString() ?? null,
      cert_problem: b.result.certProblem?.slice(0, 300) ?? null,
      hour: new Date(Math.floor(b.atMs / HOUR_MS) * HOUR_MS).toISOString(),
      day: new Date(Math.floor(b.atMs / DAY_MS) * DAY_MS).toISOString().slice(0, 10),
    }));
    const json = JSON.stringify(rows);
    const recordset = `jsonb_to_recordset($1::jsonb) as v(check_id uuid, ts timestamptz, up boolean, latency real, status int, days real, error text,
      cert_expires_at timestamptz, cert_problem text, hour timestamptz, day date)`;
    // Results of checks deleted meanwhile are dropped (the foreign keys would refuse the batch).
    const live = `exists (select 1 from checks c where c.id = v.check_id)`;
    await this.database.query(
      `with latest as (
         select distinct on (check_id) * from ${recordset} order by check_id, ts desc
       )
       update checks c set
         state = case when v.up then 'up' else 'down' end,
         state_changed_at = case when c.state = (case when v.up then 'up' else 'down' end) then coalesce(c.state_changed_at, v.ts) else v.ts end,
         last_checked_at = v.ts, last_error = v.error, latency_ms = v.latency, status_code = v.status,
         cert_expires_at = coalesce(v.cert_expires_at, c.cert_expires_at),
         cert_problem = v.cert_problem
       from latest v where c.id = v.check_id and (c.last_checked_at is null or c.last_checked_at <= v.ts)`,
      [json],
    );
    await this.database.query(
      `insert into check_samples (check_id, ts, up, latency_ms, status_code, cert_days_left, error)
       select v.check_id, v.ts, v.up, v.latency, v.status, v.days, v.error from ${recordset} where ${live}
       on conflict do nothing`,
      [json],
    );
    await this.database.query(
      `insert into check_hourly (check_id, bucket, total, up, latency_sum, latency_count, latency_max)
       select v.check_id, v.hour, count(*), count(*) filter (where v.up), coalesce(sum(v.latency), 0), count(v.latency), max(v.latency)
       from ${recordset} where ${live} group by 1, 2
       on conflict (check_id, bucket) do update set total = check_hourly.total + excluded.total, up = check_hourly.up + excluded.up,
         latency_sum = check_hourly.latency_sum + excluded.latency_sum, latency_count = check_hourly.latency_count + excluded.latency_count,
         latency_max = greatest(check_hourly.latency_max, excluded.latency_max)`,
      [json],
    );
    await this.keepUptime24h([...new Set(batch.map((b) => b.checkId))], Date.now());
    await this.database.query(
      `insert into check_daily (check_id, day, total, up, latency_sum, latency_count)
       select v.check_id, v.day, count(*), count(*) filter (where v.up), coalesce(sum(v.latency), 0), count(v.latency)
       from ${recordset} where ${live} group by 1, 2
       on conflict (check_id, day) do update set total = check_daily.total + excluded.total, up = check_daily.up + excluded.up,
         latency_sum = check_daily.latency_sum + excluded.latency_sum, latency_count = check_daily.latency_count + excluded.latency_count`,
      [json],
    );
    return batch.length;
  }

  /** Latency (average) and uptime (share up) per step over [from, to]: raw results for short steps, hourly sums for whole hours. */
  async history(checkId: string, fromMs: number, toMs: number, stepS: number): Promise<CheckHistory> {
    await this.flush();
    const hourly = stepS % 3600 === 0;
    const step = Math.max(1, Math.round(stepS));
    const start = Math.floor(fromMs / 1000 / step) * step;
    const end = Math.floor(toMs / 1000 / step) * step;
    const timestamps: number[] = [];
    for (let t = start; t <= end; t += step) timestamps.push(t);
    const latency = new Array<number | null>(timestamps.length).fill(null);
    const uptime = new Array<number | null>(timestamps.length).fill(null);
    const rows = await this.database.query<{ t: number; total: number; up: number; lat: number | null }>(
      hourly
        ? `select (floor(extract(epoch from bucket) / $4) * $4)::float8 as t, sum(total)::float8 as total, sum(up)::float8 as up,
                  (sum(latency_sum) / nullif(sum(latency_count), 0))::float8 as lat
           from check_hourly where check_id = $1 and bucket >= $2 and bucket <= $3 group by 1 order by 1`
        : `select (floor(extract(epoch from ts) / $4) * $4)::float8 as t, count(*)::float8 as total, (count(*) filter (where up))::float8 as up,
                  avg(latency_ms)::float8 as lat
           from check_samples where check_id = $1 and ts >= $2 and ts <= $3 group by 1 order by 1`,
      [checkId, new Date(start * 1000), new Date(toMs), step],
    );
    for (const r of rows) {
      const slot = Math.round((Number(r.t) - start) / step);
      if (slot < 0 || slot >= timestamps.length) continue;
      latency[slot] = r.lat === null ? null : Math.round(Number(r.lat) * 10) / 10;
      uptime[slot] = pct(Number(r.up), Number(r.total));
    }
    return { timestamps, latency, uptime, step };
  }

  /** The last `limit` results, newest first. */
  async recent(checkId: string, limit: number): Promise<CheckResult[]> {
    await this.flush();
    const rows = await this.database.query<{ ts: Date | string; up: boolean; latency_ms: number | null; status_code: number | null; cert_days_left: number | null; error: string | null }>(
      'select ts, up, latency_ms, status_code, cert_days_left, error from check_samples where check_id = $1 order by ts desc limit $2',
      [checkId, limit],
    );
    return rows.map((r) => ({
      up: r.up,
      at: new Date(r.ts).toISOString(),
      latencyMs: r.latency_ms === null ? null : Number(r.latency_ms),
      statusCode: r.status_code === null ? null : Number(r.status_code),
      certDaysLeft: r.cert_days_left === null ? null : Math.round(Number(r.cert_days_left) * 10) / 10,
      error: r.error,
    }));
  }

  /** 90 UTC days of uptime (oldest first, today last) and the 24 h / 7 / 30 / 90-day figures of some checks. */
  async uptime(checkIds: string[], nowMs: number, days = 90): Promise<Map<string, CheckUptime>> {
    await this.flush();
    const out = new Map<string, CheckUptime>();
    if (!checkIds.length) return out;
    const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
    const first = today - (days - 1) * DAY_MS;
    const dayRows = await this.database.query<{ check_id: string; day: string | Date; total: number; up: number }>(
      `select check_id, day::text as day, total, up from check_daily where check_id = any($1::uuid[]) and day >= $2::date`,
      [checkIds, new Date(first).toISOString().slice(0, 10)],
    );
    const last24 = await this.uptime24h(checkIds, nowMs);
    const byCheck = new Map<string, Map<string, { total: number; up: number }>>();
    for (const r of dayRows) {
      const key = typeof r.day === 'string' ? r.day.slice(0, 10) : r.day.toISOString().slice(0, 10);
      let m = byCheck.get(r.check_id);
      if (!m) byCheck.set(r.check_id, (m = new Map()));
      m.set(key, { total: Number(r.total), up: Number(r.up) });
    }
    for (const id of checkIds) {
      const m = byCheck.get(id) ?? new Map();
      const list: UptimeDay[] = [];
      for (let d = first; d <= today; d += DAY_MS) {
        const key = new Date(d).toISOString().slice(0, 10);
        const v = m.get(key);
        list.push({ day: key, uptime: v ? pct(v.up, v.total) : null, total: v?.total ?? 0 });
      }
      const over = (n: number) => {
        let total = 0;
        let up = 0;
        for (const d of list.slice(-n)) {
          const v = m.get(d.day);
          if (v) [total, up] = [total + v.total, up + v.up];
        }
        return pct(up, total);
      };
      out.set(id, { days: list, uptime24h: last24.get(id) ?? null, uptime7d: over(7), uptime30d: over(30), uptime90d: over(days) });
    }
    return out;
  }

  /**
   * Writes uptime24h's sums on the checks' rows (checks.up24_*) for the hour of `nowMs`, so that a
   * list page reads two numbers per check instead of summing its 25 hourly rows (docs/decisions.md "The Checks list at 5,000 checks"). Every
   * write of check_hourly is followed by this for its checks; `null`: all checks.
   */
  async keepUptime24h(checkIds: string[] | null, nowMs: number): Promise<void> {
    if (checkIds && !checkIds.length) return;
    const since = uptime24hSince(nowMs);
    const hour = new Date(since.getTime() + 24 * HOUR_MS);
    await this.database.query(
      `update checks c set up24_hour = $1, up24_total = s.total, up24_up = s.up
       from (select h.check_id, sum(h.total)::int as total, sum(h.up)::int as up from check_hourly h
             where h.bucket >= $2 ${checkIds ? 'and h.check_id = any($3::uuid[])' : ''} group by 1) s
       where c.id = s.check_id`,
      checkIds ? [hour, since, checkIds] : [hour, since],
    );
  }

  /** Share up over the last 24 whole hours and this one (hourly sums), per check. */
  async uptime24h(checkIds: string[], nowMs: number): Promise<Map<string, number | null>> {
    if (!checkIds.length) return new Map();
    const since = uptime24hSince(nowMs);
    const rows = await this.database.query<{ check_id: string; total: number; up: number }>(
      'select check_id, sum(total)::float8 as total, sum(up)::float8 as up from check_hourly where check_id = any($1::uuid[]) and bucket >= $2 group by 1',
      [checkIds, since],
    );
    return new Map(rows.map((r) => [r.check_id, pct(Number(r.up), Number(r.total))]));
  }

  /** Drops raw results older than the retention and rollups older than 92 days; PGlite needs the vacuum (no autovacuum). */
  async prune(nowMs: number, retentionHours: number): Promise<void> {
    await this.database.query('delete from check_samples where ts < $1', [new Date(nowMs - retentionHours * HOUR_MS)]);
    await this.database.query('delete from check_hourly where bucket < $1', [new Date(nowMs - ROLLUP_RETENTION_DAYS * DAY_MS)]);
    await this.database.query('delete from check_daily where day < $1::date', [new Date(nowMs - ROLLUP_RETENTION_DAYS * DAY_MS).toISOString().slice(0, 10)]);
    if (this.database.kind === 'pglite') await this.database.query('vacuum (analyze) checks, check_samples, check_hourly, check_daily');
  }
}
