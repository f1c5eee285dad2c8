import type { Database } from '../db/client';

const DAY_MS = 86_400_000;

export interface ServerUptime {
  days: { day: string; uptime: number | null }[];
  uptime90d: number | null;
}

const pct = (up: number, total: number) => (total > 0 ? Math.round((up / total) * 100_000) / 1000 : null);

/**
 * A server's daily uptime for the status pages, from what exists: raw samples are kept a day
 * (METRICS_RETENTION_HOURS), but instance_down alerts are kept as long as the incident log.
 * A day's uptime is the share of it (from the server's registration, up to now) not covered by an
 * instance_down alert; days before registration have no data. docs/decisions.md says what this
 * misses (the rule's grace period, a disabled rule, a deleted alert).
 */
export async function serverUptime(database: Database, rows: { id: string; createdAt: Date }[], nowMs: number, days: number): Promise<Map<string, ServerUptime>> {
  const out = new Map<string, ServerUptime>();
  if (!rows.length) return out;
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const first = today - (days - 1) * DAY_MS;
  const downs = await database.query<{ server_id: string; from_ms: number; to_ms: number }>(
    `select server_id, (extract(epoch from created_at) * 1000)::float8 as from_ms,
            (extract(epoch from coalesce(resolved_at, $3::timestamptz)) * 1000)::float8 as to_ms
     from alerts
     where server_id = any($1::uuid[]) and alertname = 'instance_down' and created_at <= $3 and (resolved_at is null or resolved_at >= $2)`,
    [rows.map((r) => r.id), new Date(first), new Date(nowMs)],
  );
  for (const r of rows) {
    const spans = downs.filter((d) => d.server_id === r.id).map((d) => [Number(d.from_ms), Number(d.to_ms)] as const);
    const list: ServerUptime['days'] = [];
    let total = 0;
    let down = 0;
    for (let d = first; d <= today; d += DAY_MS) {
      const start = Math.max(d, r.createdAt.getTime());
      const end = Math.min(d + DAY_MS, nowMs);
      const day = new Date(d).toISOString().slice(0, 10);
      if (end <= start) {
        list.push({ day, uptime: null });
        continue;
      }
      // Alerts of one server do not overlap (one open instance_down at a time), so overlaps add up.
      let covered = 0;
      for (const [a, b] of spans) covered += Math.max(0, Math.min(b, end) - Math.max(a, start));
      covered = Math.min(covered, end - start);
      list.push({ day, uptime: pct(end - start - covered, end - start) });
      total += end - start;
      down += covered;
    }
    out.set(r.id, { days: list, uptime90d: pct(total - down, total) });
  }
  return out;
}
