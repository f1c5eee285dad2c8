import { createHistogram } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Opsdeck's own metrics (issue 12 §3), served at GET /metrics (routes/self-metrics.ts). One
 * registry for the whole process: any module adds its metrics here, with the `opsdeck_` prefix
 * and labels of bounded cardinality (a route pattern, a channel, an outcome — never a server id,
 * a hostname or a raw path). docs/self-monitoring.md lists them; docs/grafana/opsdeck-self.json
 * charts them.
 *
 *   import { metricsRegistry } from '../ops/metrics';
 *   export const checksRun = new Counter({ name: 'opsdeck_checks_total', help: '…', labelNames: ['kind', 'outcome'], registers: [metricsRegistry] });
 */
export const metricsRegistry = new Registry();

// process_cpu_seconds_total, process_resident_memory_bytes, nodejs_eventloop_lag_seconds, nodejs_heap_* …
// prom-client's event-loop histogram samples every 10 ms: a timer waking the process 100 times
// a second, ~0.3–0.5 % of a core on an idle console (issue 17 §2, docs/benchmarks.md
// "npx tsx bench/console-idle.ts"). Its timer is pushed out of reach here and the same gauges are served below from
// a timer sampling every LOOP_SAMPLE_MS; they show the delay beyond the interval (an idle
// process reads ~0, where prom-client's read ~10 ms, its own interval).
collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 2 ** 31 - 1 });

/** How often the event-loop delay is sampled for the nodejs_eventloop_lag_*_seconds gauges. */
const LOOP_SAMPLE_MS = 100;
/**
 * Each sample is how late a LOOP_SAMPLE_MS timer fired, in ns (at least 1: the histogram takes
 * no zero). Our own timer rather than monitorEventLoopDelay: its reset() drops the first
 * interval after it, and with it a block that falls there.
 */
const loopDelay = createHistogram();
let lastSample = performance.now();
setInterval(() => {
  const now = performance.now();
  loopDelay.record(Math.max(1, Math.round((now - lastSample - LOOP_SAMPLE_MS) * 1e6)));
  lastSample = now;
}, LOOP_SAMPLE_MS).unref();
const seconds = (ns: number) => (Number.isFinite(ns) && loopDelay.count > 0 ? ns / 1e9 : 0);
const loopGauges: [string, string, () => number][] = [
  ['min', 'minimum', () => seconds(loopDelay.min)],
  ['max', 'maximum', () => seconds(loopDelay.max)],
  ['mean', 'mean', () => seconds(loopDelay.mean)],
  ['stddev', 'standard deviation', () => seconds(loopDelay.stddev)],
  ['p50', '50th percentile', () => seconds(loopDelay.percentile(50))],
  ['p90', '90th percentile', () => seconds(loopDelay.percentile(90))],
  ['p99', '99th percentile', () => seconds(loopDelay.percentile(99))],
];
for (const [key, help, read] of loopGauges) {
  const name = `nodejs_eventloop_lag_${key}_seconds`;
  metricsRegistry.removeSingleMetric(name);
  new Gauge({
    name,
    help: `The ${help} of the event loop's delay since the last collection (how late a ${LOOP_SAMPLE_MS} ms timer fired).`,
    registers: [metricsRegistry],
    collect() {
      this.set(read());
      // p99 (the last) read: the next collection covers the time since this one.
      if (key === 'p99') loopDelay.reset();
    },
  });
}

const registers = [metricsRegistry];
/** From a millisecond to a minute: HTTP calls, queries, scrapes, ticks. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const httpRequestDuration = new Histogram({
  name: 'opsdeck_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern (unmatched: "not_found") and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: SECONDS,
  registers,
});

export const scrapeDuration = new Histogram({
  name: 'opsdeck_scrape_duration_seconds',
  help: 'Built-in collector: one exporter scrape, by outcome (success, failure)',
  labelNames: ['outcome'] as const,
  buckets: SECONDS,
  registers,
});

export const scrapesTotal = new Counter({
  name: 'opsdeck_scrapes_total',
  help: 'Built-in collector: exporter scrapes by outcome (success, failure)',
  labelNames: ['outcome'] as const,
  registers,
});

export const scrapeRoundDuration = new Histogram({
  name: 'opsdeck_scrape_round_duration_seconds',
  help: 'Built-in collector: a whole round over every target, until its slowest target answered or timed out',
  buckets: SECONDS,
  registers,
});

export const backendReadDuration = new Histogram({
  name: 'opsdeck_metric_backend_request_duration_seconds',
  help: 'Prometheus mode: one query to the metric backend, by API (query, query_range) and outcome (success, error)',
  labelNames: ['api', 'outcome'] as const,
  buckets: SECONDS,
  registers,
});

export const backendReadErrors = new Counter({
  name: 'opsdeck_metric_backend_read_errors_total',
  help: 'Prometheus mode: queries the metric backend did not answer (unreachable) or refused (refused)',
  labelNames: ['reason'] as const,
  registers,
});

export const evaluationDuration = new Histogram({
  name: 'opsdeck_evaluation_tick_duration_seconds',
  help: 'Alert evaluation: one tick over every rule (only the leader evaluates)',
  buckets: SECONDS,
  registers,
});

export const evaluationTicks = new Counter({
  name: 'opsdeck_evaluation_ticks_total',
  help: 'Alert evaluation ticks by outcome (success, error)',
  labelNames: ['outcome'] as const,
  registers,
});

export const notificationsTotal = new Counter({
  name: 'opsdeck_notifications_total',
  help: 'Notification attempts by channel (email, slack, …) and outcome (sent, failed, skipped)',
  labelNames: ['channel', 'outcome'] as const,
  registers,
});

export const notificationLatency = new Histogram({
  name: 'opsdeck_notification_latency_seconds',
  help: 'From an alert transition (it opened, resolved …; the grace period is before it) to the notification being sent, by channel',
  labelNames: ['channel'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600],
  registers,
});

/**
 * Gauges read when /metrics is scraped, from whatever the app registers: the delivery queue, the
 * database pool, leadership, freshness. A test process may build several apps: their sources add
 * up (the leader gauge takes the highest).
 */
export interface MetricSource {
  queueDepth?: () => Promise<number>;
  pool?: () => { total: number; idle: number; waiting: number } | null;
  leader?: () => boolean;
  freshness?: () => Promise<{ fresh: boolean; staleServers: number } | null>;
  /** The storage faults this process knows of now (ops/faults.ts). */
  faults?: () => readonly string[];
}
const sources = new Set<MetricSource>();

/** Adds an app's gauges; returns the function that takes them away (on close). */
export function addMetricSource(source: MetricSource): () => void {
  sources.add(source);
  return () => void sources.delete(source);
}

/** A gauge read must not hold a scrape up: a query that takes longer than this is left out. */
const SOURCE_TIMEOUT_MS = 1000;
const within = <T>(p: Promise<T>): Promise<T | null> =>
  Promise.race([p.catch(() => null), new Promise<null>((resolve) => setTimeout(() => resolve(null), SOURCE_TIMEOUT_MS).unref())]);

new Gauge({
  name: 'opsdeck_delivery_queue_depth',
  help: 'Notifications queued and not yet processed (alert_outbox rows without processed_at)',
  registers,
  async collect() {
    const depths = await Promise.all([...sources].flatMap((s) => (s.queueDepth ? [within(s.queueDepth())] : [])));
    const known = depths.filter((d): d is number => d !== null);
    if (known.length) this.set(known.reduce((a, b) => a + b, 0));
    else this.reset();
  },
});

new Gauge({
  name: 'opsdeck_db_pool_connections',
  help: 'PostgreSQL connection pool: connections by state (total, idle, waiting: requests waiting for one)',
  labelNames: ['state'] as const,
  registers,
  collect() {
    this.reset();
    const pools = [...sources].flatMap((s) => {
      const p = s.pool?.();
      return p ? [p] : [];
    });
    if (!pools.length) return;
    for (const state of ['total', 'idle', 'waiting'] as const) this.set({ state }, pools.reduce((a, p) => a + p[state], 0));
  },
});

/** The reasons of ops/faults.ts FaultReason, each a series of opsdeck_storage_fault. */
const STORAGE_FAULTS = ['disk_full', 'read_only', 'pool_exhausted'] as const;

new Gauge({
  name: 'opsdeck_storage_fault',
  // The one signal of a read-only database that needs no write: the meta alert saying so
  // cannot be stored while it lasts, but a Prometheus scraping this can alert on it.
  help: '1 while this process knows the database cannot store changes for this reason (disk_full, read_only, pool_exhausted), else 0',
  labelNames: ['reason'] as const,
  registers,
  collect() {
    this.reset();
    const known = [...sources].flatMap((s) => (s.faults ? [s.faults()] : []));
    if (!known.length) return;
    for (const reason of STORAGE_FAULTS) this.set({ reason }, known.some((reasons) => reasons.includes(reason)) ? 1 : 0);
  },
});

new Gauge({
  name: 'opsdeck_leader',
  help: '1 when this process is the leader (runs the collector, evaluator and delivery), else 0',
  registers,
  collect() {
    this.set([...sources].some((s) => s.leader?.()) ? 1 : 0);
  },
});

/** Freshness as this process sees it (the leader first hand, the others from what it publishes). */
async function freshnessNow(): Promise<{ fresh: boolean; staleServers: number }[]> {
  const found = await Promise.all([...sources].flatMap((s) => (s.freshness ? [within(s.freshness())] : [])));
  return found.filter((f): f is { fresh: boolean; staleServers: number } => f !== null);
}

new Gauge({
  name: 'opsdeck_monitoring_fresh',
  help: '1 while the figures are fresh, 0 while the metric backend is blind or no leader reports on it',
  registers,
  async collect() {
    const found = await freshnessNow();
    if (found.length) this.set(found.every((f) => f.fresh) ? 1 : 0);
  },
});

new Gauge({
  name: 'opsdeck_stale_servers',
  help: 'Monitored servers in state stale (no fresh figures), as the leader last published',
  registers,
  async collect() {
    const found = await freshnessNow();
    if (found.length) this.set(Math.max(...found.map((f) => f.staleServers)));
  },
});
