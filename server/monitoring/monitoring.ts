import type { MonitoringSettings } from '../config';
import type { Database } from '../db/client';
import { MetricStore, ROLLUP_S } from './metric-store';
import { ObservationWriter } from './observations';
import { MAX_CHART_LINES, pickSeriesBounded, type PanelDef } from './panels';
import { prometheusChart } from './prometheus-charts';
import { PrometheusClient } from './prometheus-client';
import { PrometheusCollector } from './prometheus-collector';
import { CheckRunner } from './checks/check-runner';
import { ScrapeCollector, type Logger } from './scrape-collector';
import type { Os } from './types';

/** What a chart panel needs besides its definition. */
export interface ChartTarget {
  id: string;
  os: Os;
  /** `ip:port` as Prometheus labels the instance. */
  instance: string;
}

/** What both collectors offer the facade. */
export interface Collector {
  start(): void;
  stop(): Promise<void>;
  /** Collect one server's figures now (Prometheus mode: read the fleet once more). */
  scrapeNow(serverId: string): Promise<void>;
  forget(serverId: string): void;
  /** When figures were last written (ms; null: not yet since start), and what fails now, if anything. */
  freshness(): { lastFreshAt: number | null; problem: string | null };
}

/** Two intervals plus the scrape timeout a round may take to write its figures. */
export const staleAfterMs = (s: Pick<MonitoringSettings, 'scrapeIntervalS' | 'scrapeTimeoutS'>) => (2 * s.scrapeIntervalS + s.scrapeTimeoutS) * 1000;

/** What the monitoring backend's freshness looks like now (readiness, the banner, the meta alert). */
export interface Freshness {
  fresh: boolean;
  /** Why not, naming the backend; null when fresh. */
  cause: string | null;
  lastFreshAt: number | null;
}

export interface ChartSeries {
  timestamps: number[];
  series: { label: string; values: (number | null)[] }[];
  /** Set when the panel has more lines than MAX_CHART_LINES: how many are shown of how many. */
  truncated?: { shown: number; total: number };
}

/**
 * Everything that turns exporters into figures, behind one object the routes use. In built-in
 * mode Opsdeck scrapes and keeps history itself; with PROMETHEUS_URL, Prometheus does both and
 * Opsdeck reads from it (prometheus-collector.ts).
 */
export class Monitoring {
  readonly mode: 'builtin' | 'prometheus';
  readonly store: MetricStore;
  readonly writer: ObservationWriter;
  readonly collector: Collector;
  /** Set in Prometheus mode. */
  readonly prometheus: PrometheusClient | null;
  /** Website, TCP, DNS and TLS checks: run in-process in both modes (issue 16). */
  readonly checks: CheckRunner;
  private started = false;
  private startedAt = 0;
  private soon = new Map<string, NodeJS.Timeout>();
  private written: (() => void)[] = [];

  constructor(
    readonly database: Database,
    readonly settings: MonitoringSettings,
    readonly log: Logger,
  ) {
    this.mode = settings.prometheusUrl ? 'prometheus' : 'builtin';
    this.store = new MetricStore(database);
    this.checks = new CheckRunner(database, settings.checks, log);
    this.checks.onWritten = () => this.emitWritten();
    if (settings.prometheusUrl) {
      // History lives in Prometheus: the writer keeps the server rows and services only.
      this.prometheus = new PrometheusClient(settings.prometheusUrl, settings.prometheusAuth);
      this.writer = new ObservationWriter(database, null);
      this.collector = new PrometheusCollector(
        database,
        this.writer,
        this.prometheus,
        { intervalS: settings.scrapeIntervalS, staleAfterMs: staleAfterMs(settings) + settings.scrapeIntervalS * 1000 },
        log,
        () => this.emitWritten(),
      );
    } else {
      this.prometheus = null;
      this.writer = new ObservationWriter(database, this.store);
      this.collector = new ScrapeCollector(
        database,
        this.writer,
        {
          intervalS: settings.scrapeIntervalS,
          timeoutS: settings.scrapeTimeoutS,
          concurrency: settings.scrapeConcurrency,
          retentionHours: settings.retentionHours,
          seriesLimit: settings.seriesLimit,
          labelLimit: settings.labelLimit,
        },
        log,
        () => this.emitWritten(),
      );
    }
  }

  /**
   * `listener` runs each time a scrape round (a Prometheus read) has written server rows, so
   * whatever reads them (the alert evaluator, wired in app.ts) can look at once. Monitoring
   * knows nothing of its listeners; a listener must return quickly and not throw.
   */
  onRoundWritten(listener: () => void): void {
    this.written.push(listener);
  }

  private emitWritten(): void {
    for (const listener of this.written) {
      try {
        listener();
      } catch (error) {
        this.log.error({ err: error }, 'A listener of written scrape rounds failed');
      }
    }
  }

  start(): void {
    if (this.started || !this.settings.enabled) return;
    this.started = true;
    this.startedAt = Date.now();
    this.collector.start();
    this.checks.start();
  }

  async stop(): Promise<void> {
    for (const timer of this.soon.values()) clearTimeout(timer);
    this.soon.clear();
    if (!this.started) return;
    this.started = false;
    await Promise.all([this.collector.stop(), this.checks.stop()]);
  }

  /**
   * Figures count as fresh for two intervals plus the scrape timeout a round may take to write
   * them (issue 12: "more than two intervals" without fresh data is blind).
   */
  get staleAfterMs(): number {
    return staleAfterMs(this.settings);
  }

  /**
   * How old a server's own verdict (`observed_at`) may be. Built-in: the same window. Prometheus
   * mode: one interval more, since `observed_at` is the time of Prometheus's own sample, which is
   * already up to one of its scrape intervals old when Opsdeck reads it; the backend itself is
   * still judged by staleAfterMs (when a read last succeeded).
   */
  get rowStaleAfterMs(): number {
    return this.staleAfterMs + (this.mode === 'prometheus' ? this.settings.scrapeIntervalS * 1000 : 0);
  }

  /**
   * Whether this process's collector has written fresh figures within staleAfterMs, and if not,
   * why, naming the backend: the Prometheus error, or a built-in collector that stalled. Only
   * meaningful where the collector runs (the leader).
   */
  freshness(now = Date.now()): Freshness {
    const { lastFreshAt, problem } = this.collector.freshness();
    const since = lastFreshAt ?? this.startedAt;
    if (now - since <= this.staleAfterMs) return { fresh: true, cause: null, lastFreshAt };
    const age = Math.round((now - since) / 1000);
    const what = this.mode === 'prometheus' ? `Prometheus at ${this.prometheus!.displayUrl}` : 'The built-in collector';
    const cause = problem
      ? this.mode === 'prometheus' && problem.startsWith('Prometheus at')
        ? problem
        : `${what}: ${problem}`
      : lastFreshAt === null
        ? `${what} has written no figures in the ${age} s since it started`
        : `${what} has written no fresh figures for ${age} s`;
    return { fresh: false, cause, lastFreshAt };
  }

  /** Collect one server's figures shortly (a new or re-pointed server), without waiting for the next tick. */
  refreshSoon(serverId: string): void {
    if (!this.started || this.soon.has(serverId)) return;
    this.soon.set(
      serverId,
      setTimeout(() => {
        this.soon.delete(serverId);
        this.collector.scrapeNow(serverId).catch((error) => this.log.warn({ err: error, server: serverId }, 'Immediate scrape failed'));
      }, 50),
    );
  }

  /** The step a chart gets when it asks for none: about 300 points, never finer than the scrape interval. */
  defaultStep(fromMs: number, toMs: number): number {
    const step = Math.max(this.settings.scrapeIntervalS, Math.ceil((toMs - fromMs) / 1000 / 300));
    // From 12 hours up, whole five-minute buckets, which the store answers from its rollups.
    return step >= 140 ? Math.ceil(step / ROLLUP_S) * ROLLUP_S : step;
  }

  /** One panel's lines over [from, to] from the embedded store (Prometheus mode: from PromQL). */
  async chart(target: ChartTarget, def: PanelDef, fromMs: number, toMs: number, stepS: number): Promise<ChartSeries> {
    if (this.prometheus) {
      // Prometheus bounds its own work (query.max-samples); the answer is cut like the built-in one.
      const chart = await prometheusChart(this.prometheus, target.os, def.id, target.instance, fromMs, toMs, stepS, this.settings.scrapeIntervalS);
      if (chart.series.length <= MAX_CHART_LINES) return chart;
      return { timestamps: chart.timestamps, series: chart.series.slice(0, MAX_CHART_LINES), truncated: { shown: MAX_CHART_LINES, total: chart.series.length } };
    }
    const { picked, total } = pickSeriesBounded(def, await this.store.keys(target.id), MAX_CHART_LINES);
    const window = await this.store.query(
      target.id,
      picked.map((p) => p.key),
      fromMs,
      toMs,
      stepS,
    );
    return {
      timestamps: window.timestamps,
      series: picked.map((p, i) => ({
        label: p.label,
        values: p.scale === 1 ? window.values[i]! : window.values[i]!.map((v) => (v === null ? null : v * p.scale)),
      })),
      ...(total > picked.length ? { truncated: { shown: picked.length, total } } : {}),
    };
  }

  forget(serverId: string): void {
    this.collector.forget(serverId);
  }
}
