/**
 * A chart panel's lines read from Prometheus (query_range), in the shape and on the time grid
 * of the built-in store's charts (metric-store.ts): timestamps from the start aligned down to
 * the step to the end, null where Prometheus has no point.
 */
import { renderLegend } from './panels';
import { promqlPanels } from './panels-promql';
import type { PrometheusClient } from './prometheus-client';
import type { Os } from './types';

export interface PrometheusChart {
  timestamps: number[];
  series: { label: string; values: (number | null)[] }[];
}

/** Prometheus refuses a range query of more than 11,000 points per series. */
const MAX_POINTS = 11_000;

/**
 * Grafana's $__rate_interval: at least four scrapes (so irate always finds two samples even with
 * one missed) and at least one step plus one scrape (so no sample falls between two points).
 */
export function rateWindowS(stepS: number, scrapeIntervalS: number): number {
  return Math.ceil(Math.max(stepS + scrapeIntervalS, 4 * scrapeIntervalS));
}

const escapeLabelValue = (v: string) => v.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));

/** Fill in a panels-promql.ts query: `{I…}` gets the instance matcher, `[R]` the rate window. */
export function panelExpr(expr: string, instance: string, rateWindowSeconds: number): string {
  const matcher = `instance="${escapeLabelValue(instance)}"`;
  return expr.replace(/\{I([,}])/g, (_, next: string) => `{${matcher}${next}`).replaceAll('[R]', `[${rateWindowSeconds}s]`);
}

export async function prometheusChart(
  client: PrometheusClient,
  os: Os,
  panelId: number,
  instance: string,
  fromMs: number,
  toMs: number,
  stepS: number,
  scrapeIntervalS = 15,
): Promise<PrometheusChart> {
  const queries = promqlPanels[os][panelId];
  if (!queries) throw new Error(`No ${os} panel ${panelId}`);
  let step = Math.max(1, Math.round(stepS));
  if ((toMs - fromMs) / 1000 / step > MAX_POINTS) step = Math.ceil((toMs - fromMs) / 1000 / MAX_POINTS);
  const start = Math.floor(fromMs / 1000 / step) * step;
  const end = Math.floor(toMs / 1000 / step) * step;
  const timestamps: number[] = [];
  for (let t = start; t <= end; t += step) timestamps.push(t);
  if (timestamps.length === 0) return { timestamps, series: [] };

  const window = rateWindowS(step, scrapeIntervalS);
  const answers = await Promise.all(queries.map((query) => client.queryRange(panelExpr(query.expr, instance, window), start, end, step)));
  const series: PrometheusChart['series'] = [];
  const seen = new Set<string>();
  queries.forEach((query, i) => {
    const lines = answers[i]!.map((item) => {
      const values = new Array<number | null>(timestamps.length).fill(null);
      for (const [t, v] of item.values) {
        const slot = Math.round((t - start) / step);
        if (slot >= 0 && slot < values.length && Number.isFinite(v)) values[slot] = v;
      }
      return { label: renderLegend(query.legend, item.metric), values };
    });
    // Sorted by legend within a query, as panels.ts's pickSeries orders the built-in lines.
    lines.sort((a, b) => a.label.localeCompare(b.label, 'en', { numeric: true }));
    for (const line of lines) {
      if (seen.has(line.label)) continue;
      seen.add(line.label);
      series.push(line);
    }
  });
  return { timestamps, series };
}
