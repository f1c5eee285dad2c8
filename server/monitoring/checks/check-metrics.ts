import { Gauge, type Registry } from 'prom-client';
import type { CheckRunner } from './check-runner';

/**
 * Check results on Opsdeck's `/metrics` (issue 16), so Prometheus keeps their history whatever
 * the monitoring mode: read from the runner's latest results when scraped, one series per check,
 * labelled with its name and kind (bounded by the number of checks).
 */
export function registerCheckMetrics(registry: Registry, runner: CheckRunner): void {
  const labelNames = ['check', 'kind'] as const;
  const each = (set: (g: Gauge<(typeof labelNames)[number]>, r: CheckRunner['latest'] extends Map<string, infer V> ? V : never) => void) =>
    function (this: Gauge<(typeof labelNames)[number]>) {
      this.reset();
      for (const r of runner.latest.values()) set(this, r);
    };
  const gauges = [
    new Gauge({ name: 'opsdeck_check_up', help: 'Whether the last run of the check succeeded (1) or failed (0).', labelNames, registers: [], collect: each((g, r) => g.set({ check: r.name, kind: r.kind }, r.up ? 1 : 0)) }),
    new Gauge({
      name: 'opsdeck_check_latency_seconds',
      help: 'How long the last run of the check took until it was answered.',
      labelNames,
      registers: [],
      collect: each((g, r) => r.latencyMs !== null && g.set({ check: r.name, kind: r.kind }, r.latencyMs / 1000)),
    }),
    new Gauge({ name: 'opsdeck_check_status_code', help: 'HTTP status code of the last run of an HTTP check.', labelNames, registers: [], collect: each((g, r) => r.statusCode !== null && g.set({ check: r.name, kind: r.kind }, r.statusCode)) }),
    new Gauge({
      name: 'opsdeck_check_certificate_expiry_seconds',
      help: 'When the certificate the check saw expires, in seconds since the Unix epoch.',
      labelNames,
      registers: [],
      collect: each((g, r) => r.certExpiresAt !== null && g.set({ check: r.name, kind: r.kind }, r.certExpiresAt.getTime() / 1000)),
    }),
    new Gauge({ name: 'opsdeck_check_last_run_timestamp_seconds', help: 'When the check last ran, in seconds since the Unix epoch.', labelNames, registers: [], collect: each((g, r) => g.set({ check: r.name, kind: r.kind }, r.atMs / 1000)) }),
  ];
  for (const g of gauges) {
    // The app of the latest buildApp() owns them (tests build several).
    registry.removeSingleMetric((g as unknown as { name: string }).name);
    registry.registerMetric(g);
  }
}
