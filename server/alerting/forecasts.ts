import type { Database } from '../db/client';
import { forecastFull, type Forecast, type Point } from './forecast';

/** The forecast looks this far back: the 6 hours. */
export const FORECAST_WINDOW_S = 6 * 3600;
/** Servers per statement: PGlite runs in this process, and one statement over the fleet would hold every request up. */
const CHUNK = 200;

/** The series keys of "disk used" (Linux root filesystem, Windows lettered volumes) and "memory used", percent. */
const DISK_KEYS = ['fs_used_pct{mountpoint="/"}', 'disk_used_pct'];
const MEMORY_KEY = 'mem_used_pct';

export interface ForecastRow {
  serverId: string;
  metric: 'disk' | 'memory';
  forecast: Forecast;
}

/**
 * The built-in store's forecasts: each server's five-minute averages of disk and memory use over
 * the last 6 hours (metric_rollups, read set-wise, 200 servers a statement), its current figure
 * as the last point, a Theil–Sen fit each (forecast.ts), and one upsert of server_forecasts per
 * chunk. A server without enough history has no row (and no forecast alert). Returns what it wrote.
 */
export async function computeForecasts(database: Database, nowMs: number): Promise<ForecastRow[]> {
  const since = new Date(nowMs - FORECAST_WINDOW_S * 1000);
  const nowS = nowMs / 1000;
  const ids = (await database.query<{ id: string }>(`select id from servers where status = 'active' and is_agent_configured and state = 'up' order by id`)).map((r) => r.id);
  const out: ForecastRow[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const rows = await database.query<{ server_id: string; t: number; disk: number | null; mem: number | null }>(
      `select s.server_id, extract(epoch from r.bucket)::float8 + 150 as t,
              r.values[coalesce(array_position(s.keys, $3), array_position(s.keys, $4))]::float8 as disk,
              r.values[array_position(s.keys, $5)]::float8 as mem
       from metric_series s join metric_rollups r on r.server_id = s.server_id
       where s.server_id = any($1::uuid[]) and r.bucket >= $2
       union all
       select id, extract(epoch from last_scraped_at)::float8, disk_usage, memory_usage from servers
       where id = any($1::uuid[]) and last_scraped_at >= $2`,
      [chunk, since, DISK_KEYS[0], DISK_KEYS[1], MEMORY_KEY],
    );
    const points = new Map<string, { disk: Point[]; memory: Point[] }>();
    for (const r of rows) {
      let p = points.get(r.server_id);
      if (!p) points.set(r.server_id, (p = { disk: [], memory: [] }));
      if (r.disk !== null) p.disk.push({ t: Number(r.t), v: Number(r.disk) });
      if (r.mem !== null) p.memory.push({ t: Number(r.t), v: Number(r.mem) });
    }
    const written: ForecastRow[] = [];
    for (const [serverId, p] of points) {
      for (const metric of ['disk', 'memory'] as const) {
        const forecast = forecastFull(p[metric], nowS);
        if (forecast) written.push({ serverId, metric, forecast });
      }
    }
    await writeForecasts(database, chunk, written, nowMs);
    out.push(...written);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await dropStale(database);
  return out;
}

/** Servers no longer up or monitored keep no forecast. */
export async function dropStale(database: Database): Promise<void> {
  await database.query(`delete from server_forecasts f where not exists (select 1 from servers s where s.id = f.server_id and s.status = 'active' and s.is_agent_configured and s.state = 'up')`);
}

/** Replaces the forecasts of `serverIds` with `written` (a server missing from it has none now). */
export async function writeForecasts(database: Database, serverIds: string[], written: ForecastRow[], nowMs: number): Promise<void> {
    await database.query(
      `delete from server_forecasts where server_id = any($1::uuid[]) and (server_id, metric) not in (select * from jsonb_to_recordset($2::jsonb) as x(s uuid, m text))`,
      [serverIds, JSON.stringify(written.map((w) => ({ s: w.serverId, m: w.metric })))],
    );
    if (written.length) {
      await database.query(
        `insert into server_forecasts (server_id, metric, hours_left, full_at, slope_per_hour, fitted_now, points, computed_at)
         select x.s, x.m, x.h, to_timestamp(x.f), x.slope, x.now, x.n, $2 from jsonb_to_recordset($1::jsonb) as x(s uuid, m text, h float8, f float8, slope float8, now float8, n int)
         where exists (select 1 from servers where id = x.s)
         on conflict (server_id, metric) do update set hours_left = excluded.hours_left, full_at = excluded.full_at, slope_per_hour = excluded.slope_per_hour,
           fitted_now = excluded.fitted_now, points = excluded.points, computed_at = excluded.computed_at`,
        [
          JSON.stringify(written.map((w) => ({ s: w.serverId, m: w.metric, h: w.forecast.hoursLeft, f: w.forecast.fullAt, slope: w.forecast.slopePerHour, now: w.forecast.fittedNow, n: w.forecast.points }))),
          new Date(nowMs),
        ],
      );
    }
}
