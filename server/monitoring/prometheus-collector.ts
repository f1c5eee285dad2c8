import type { Database } from '../db/client';
import { deriveScrape } from './derive';
import type { ObservationWriter } from './observations';
import { PrometheusClient, type VectorItem } from './prometheus-client';
import type { Logger, Target } from './scrape-collector';
import { OutageNotice } from '../ops/outage';
import { usageFields, type Os, type Scrape, type ServiceState, type Usage } from './types';
import { FIELD_LABEL, FLEET_STATE_QUERY, fleetServicesQuery, fleetUsageQuery, SERVICE_METRIC, usageRateWindow } from './usage-promql';

export interface PrometheusCollectorSettings {
  intervalS: number;
  /** A sample older than this is not fresh: it is not written, and the server goes stale (FreshnessWatch; Monitoring.rowStaleAfterMs). */
  staleAfterMs: number;
}

/** `ip:port` as Prometheus's service discovery (monitoring/targets.ts) makes it the instance label. */
export function prometheusInstance(ipaddress: string, port: number): string {
  return ipaddress.includes(':') ? `[${ipaddress}]:${port}` : `${ipaddress}:${port}`;
}

/** What Prometheus says about one instance at one read. */
export interface InstanceReading {
  up: boolean;
  scrapedAtMs: number | null;
  usage: Usage;
  /** null: the exporter exposes no service states (systemd collector off). */
  services: ServiceState[] | null;
}

const emptyUsage = (): Usage => Object.fromEntries(usageFields.map((f) => [f, null])) as unknown as Usage;

/** Group a tagged fleet query's answer by instance, then by field. */
function byInstance(items: VectorItem[]): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const { metric, value } of items) {
    const instance = metric['instance'];
    const field = metric[FIELD_LABEL];
    if (instance === undefined || field === undefined) continue;
    let fields = out.get(instance);
    if (!fields) out.set(instance, (fields = new Map()));
    fields.set(field, value);
  }
  return out;
}

/**
 * Service rows → service states through linux.ts / windows.ts themselves (a scrape holding just
 * those rows), so both modes map states the same way.
 */
function servicesOf(os: Os, rows: VectorItem[], atMs: number): ServiceState[] | null {
  if (rows.length === 0) return null;
  const isStartMode = (r: VectorItem) => r.metric['opsdeck_kind'] === 'start_mode';
  const scrape: Scrape = new Map([
    [SERVICE_METRIC[os], rows.filter((r) => !isStartMode(r)).map((r) => ({ labels: r.metric, value: r.value }))],
    ['windows_service_start_mode', rows.filter(isStartMode).map((r) => ({ labels: r.metric, value: r.value }))],
  ]);
  const { derived } = deriveScrape(os, scrape, atMs);
  return derived.servicesExposed ? derived.services : null;
}

/**
 * Prometheus mode's collector: Prometheus scrapes the fleet (it discovers it through
 * /api/prometheus/targets); on every interval this reads every active, agent-configured
 * server's state, usage figures and services with a handful of fleet-wide PromQL queries and
 * writes them where the built-in collector would. History stays in Prometheus.
 */
export class PrometheusCollector {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private again = false;
  private unreachable = false;
  private stopped = true;
  /** When a read last succeeded and its figures were written (ms); null: not yet. */
  private lastReadAt: number | null = null;
  /** Why the last read failed; null once one succeeds. */
  private lastProblem: string | null = null;
  /** Database trouble while recording what was read: logged once per outage, not per server. */
  private readonly writes: OutageNotice;

  constructor(
    private readonly database: Database,
    private readonly writer: ObservationWriter,
    readonly client: PrometheusClient,
    private readonly settings: PrometheusCollectorSettings,
    private readonly log: Logger,
    /** Called after a read's server rows are written (Monitoring.onRoundWritten). */
    private readonly onWritten: () => void = () => {},
  ) {
    this.writes = new OutageNotice(log, 'Recording figures read from Prometheus');
  }

  start(): void {
    this.stopped = false;
    void this.refresh();
    this.timer = setInterval(() => {
      if (!this.ticking) void this.refresh();
    }, this.settings.intervalS * 1000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** Read now; a read already running is followed by one more, so the caller sees fresh figures. */
  refresh(): Promise<void> {
    if (this.ticking) {
      this.again = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      try {
        do {
          this.again = false;
          await this.tick();
        } while (this.again && !this.stopped);
      } finally {
        this.ticking = null;
      }
    })();
    return this.ticking;
  }

  /** When figures were last read and written (ms), and why reading fails now, if it does (FreshnessWatch). */
  freshness(): { lastFreshAt: number | null; problem: string | null } {
    return { lastFreshAt: this.lastReadAt, problem: this.lastProblem };
  }

  /** The built-in collector's immediate scrape; here one more fleet read (a few queries). */
  async scrapeNow(_serverId: string): Promise<void> {
    await this.refresh();
  }

  forget(serverId: string): void {
    this.writer.forget(serverId);
  }

  async targets(): Promise<(Target & { instance: string })[]> {
    const rows = await this.database.query<{ id: string; ipaddress: string; agent_port: number; operating_system: Os }>(
      `select id, ipaddress, agent_port, operating_system from servers where status = 'active' and is_agent_configured`,
    );
    return rows.map((r) => ({ id: r.id, ipaddress: r.ipaddress, agentPort: r.agent_port, os: r.operating_system, instance: prometheusInstance(r.ipaddress, r.agent_port) }));
  }

  /** Every instance's reading for the OSes asked for; throws when Prometheus cannot answer. */
  async read(oses: ReadonlySet<Os>): Promise<Map<string, InstanceReading>> {
    const window = usageRateWindow(this.settings.intervalS);
    const list = [...oses];
    const [state, ...perOs] = await Promise.all([
      this.client.query(FLEET_STATE_QUERY),
      ...list.flatMap((os) => [this.client.query(fleetUsageQuery(os, window)), this.client.query(fleetServicesQuery(os))]),
    ]);
    const readAtMs = Date.now();
    const readings = new Map<string, InstanceReading>();
    for (const [instance, fields] of byInstance(state!)) {
      const at = fields.get('scrapedAt');
      readings.set(instance, { up: fields.get('up') === 1, scrapedAtMs: at === undefined ? null : Math.round(at * 1000), usage: emptyUsage(), services: null });
    }
    list.forEach((os, i) => {
      for (const [instance, fields] of byInstance(perOs[2 * i]!)) {
        const reading = readings.get(instance);
        if (!reading) continue;
        for (const f of usageFields) if (fields.has(f)) reading.usage[f] = fields.get(f)!;
      }
      const rowsByInstance = new Map<string, VectorItem[]>();
      for (const row of perOs[2 * i + 1]!) {
        const instance = row.metric['instance'];
        if (instance === undefined) continue;
        (rowsByInstance.get(instance) ?? rowsByInstance.set(instance, []).get(instance)!).push(row);
      }
      for (const [instance, rows] of rowsByInstance) {
        const reading = readings.get(instance);
        if (reading) reading.services = servicesOf(os, rows, reading.scrapedAtMs ?? readAtMs);
      }
    });
    return readings;
  }

  /** One read of the fleet, written onto every target's row. */
  async tick(): Promise<void> {
    let targets: Awaited<ReturnType<PrometheusCollector['targets']>>;
    try {
      targets = await this.targets();
    } catch (error) {
      this.writes.failed(error);
      this.lastProblem = `Could not read the servers to monitor: ${(error as Error).message}`;
      return;
    }
    if (targets.length === 0) {
      // Nothing to read, but whether the backend answers is still worth knowing (readiness, the
      // banner): one trivial query.
      try {
        await this.client.query('vector(1)');
        this.lastReadAt = Date.now();
        this.lastProblem = null;
      } catch (error) {
        this.lastProblem = (error as Error).message;
      }
      return;
    }
    let readings: Map<string, InstanceReading>;
    try {
      readings = await this.read(new Set(targets.map((t) => t.os)));
    } catch (error) {
      // Figures stay as last read (dated by lastScrapedAt): an unreachable Prometheus says
      // nothing about the servers. Logged once per outage.
      if (!this.unreachable) this.log.error({ err: error }, 'Could not read from Prometheus; keeping the last figures');
      this.unreachable = true;
      this.lastProblem = (error as Error).message;
      return;
    }
    if (this.unreachable) this.log.warn({}, 'Prometheus answers again');
    this.unreachable = false;
    const now = Date.now();
    try {
      for (const target of targets) {
        if (this.stopped) return;
        const reading = readings.get(target.instance);
        // Prometheus answers, but its newest sample of this server is old (its scrapes stopped):
        // that is no news, and the freshness watch marks the server stale.
        if (reading?.scrapedAtMs != null && now - reading.scrapedAtMs > this.settings.staleAfterMs) continue;
        try {
          if (!reading) {
            await this.writer.queueDown(target.id, now, `Prometheus has no target ${target.instance}: is it discovering servers from /api/prometheus/targets?`);
          } else if (!reading.up) {
            await this.writer.queueDown(target.id, reading.scrapedAtMs ?? now, `Prometheus could not scrape ${target.instance}`);
          } else {
            await this.writer.queueUp(target.id, reading.scrapedAtMs ?? now, reading.usage, reading.services);
          }
        } catch (error) {
          this.writes.failed(error);
        }
      }
    } finally {
      // One UPDATE for the whole fleet; written before the read resolves, so scrapeNow's callers see it.
      try {
        await this.writer.flush();
        this.lastReadAt = Date.now();
        this.lastProblem = null;
        this.writes.ok();
      } catch (error) {
        this.writes.failed(error);
        this.lastProblem = `Could not write the readings from Prometheus: ${(error as Error).message}`;
      }
      if (!this.stopped) this.onWritten();
    }
  }
}
