import type { Database } from '../db/client';
import type { PrometheusClient, VectorItem } from '../monitoring/prometheus-client';
import { prometheusInstance } from '../monitoring/prometheus-collector';
import type { Os } from '../monitoring/types';
import { linuxUsagePromql, tagged, windowsUsagePromql, FIELD_LABEL } from '../monitoring/usage-promql';
import { forecastFromLine, MIN_POINTS, MIN_SPAN_S } from './forecast';
import { dropStale, FORECAST_WINDOW_S, writeForecasts, type ForecastRow } from './forecasts';

/** The subquery's resolution: the built-in store's five-minute rollups, so both modes fit the same number of points. */
export const FORECAST_STEP_S = 300;
/** Points a fit needs: MIN_POINTS, and enough five-minute steps to span MIN_SPAN_S. */
export const MIN_PROM_POINTS = Math.max(MIN_POINTS, Math.floor(MIN_SPAN_S / FORECAST_STEP_S) + 1);

/**
 * Per OS, one query for the whole fleet: for disk and memory use (the same expressions the
 * collector reads, usage-promql.ts), Prometheus's own least-squares fit over the last 6 hours —
 * `predict_linear(…[6h:5m], 0)` the fitted value now, `deriv` its slope per second — and how many
 * points it had. Tagged by field like the collector's fleet query.
 */
export function fleetForecastQuery(os: Os): string {
  // Gauges only: the irate window of the rate fields does not matter here.
  const exprs = os === 'windows' ? windowsUsagePromql('2m') : linuxUsagePromql('2m');
  const range = `[${FORECAST_WINDOW_S}s:${FORECAST_STEP_S}s]`;
  const parts: Record<string, string> = {};
  for (const [metric, expr] of [
    ['disk', exprs.diskUsage],
    ['memory', exprs.memoryUsage],
  ] as const) {
    if (!expr) continue;
    parts[`${metric}_now`] = `predict_linear((${expr})${range}, 0)`;
    parts[`${metric}_slope`] = `deriv((${expr})${range})`;
    parts[`${metric}_points`] = `count_over_time((${expr})${range})`;
  }
  return tagged(parts);
}

function byInstance(items: VectorItem[]): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const { metric, value } of items) {
    const instance = metric['instance'];
    const field = metric[FIELD_LABEL];
    if (instance === undefined || field === undefined) continue;
    (out.get(instance) ?? out.set(instance, new Map()).get(instance)!).set(field, value);
  }
  return out;
}

/**
 * Prometheus mode's forecasts (issue 16 §2): the same server_forecasts rows as the built-in store's
 * (forecasts.ts), from `predict_linear` and `deriv` evaluated by Prometheus over its own history,
 * one query per OS whatever the fleet's size. A least-squares line follows a single spike where the
 * built-in Theil–Sen fit does not (docs/decisions.md). Throws when Prometheus does not answer (the
 * evaluator logs it and keeps the forecasts it has).
 */
export async function computePrometheusForecasts(database: Database, client: PrometheusClient, nowMs: number): Promise<ForecastRow[]> {
  const nowS = nowMs / 1000;
  const servers = await database.query<{ id: string; ipaddress: string; agent_port: number; operating_system: Os }>(
    `select id, ipaddress, agent_port, operating_system from servers where status = 'active' and is_agent_configured and state = 'up' order by id`,
  );
  const oses = [...new Set(servers.map((s) => s.operating_system))];
  const answers = await Promise.all(oses.map((os) => client.query(fleetForecastQuery(os), nowS)));
  const byOs = new Map(oses.map((os, i) => [os, byInstance(answers[i]!)]));
  const written: ForecastRow[] = [];
  for (const s of servers) {
    const fields = byOs.get(s.operating_system)?.get(prometheusInstance(s.ipaddress, Number(s.agent_port)));
    if (!fields) continue;
    for (const metric of ['disk', 'memory'] as const) {
      const now = fields.get(`${metric}_now`);
      const slope = fields.get(`${metric}_slope`);
      const points = fields.get(`${metric}_points`) ?? 0;
      if (now === undefined || slope === undefined || !Number.isFinite(now) || !Number.isFinite(slope) || points < MIN_PROM_POINTS) continue;
      written.push({ serverId: s.id, metric, forecast: forecastFromLine(slope * 3600, now, nowS, points) });
    }
  }
  const ids = servers.map((s) => s.id);
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const set = new Set(chunk);
    await writeForecasts(
      database,
      chunk,
      written.filter((w) => set.has(w.serverId)),
      nowMs,
    );
  }
  await dropStale(database);
  return written;
}
