import type { Database } from '../db/client';
import type { ObservationWriter } from './observations';
import type { Os, Usage } from './types';
import { usageFields } from './types';
import { databaseUnavailable } from '../db/unavailable';
import { faultsOf } from '../ops/faults';
import { OutageNotice } from '../ops/outage';
import { scrapeDuration, scrapeRoundDuration, scrapesTotal } from '../ops/metrics';
import { ScrapeWorkerClient } from './scrape-client';
import type { FromWorker, ScrapeResult, WorkerTarget } from './scrape-protocol';

export { fetchMetrics } from './fetch-metrics';

export interface Target {
  id: string;
  ipaddress: string;
  agentPort: number;
  os: Os;
}

export interface ScrapeSettings {
  intervalS: number;
  timeoutS: number;
  concurrency: number;
  retentionHours: number;
  /** SCRAPE_SERIES_LIMIT and SCRAPE_LABEL_LIMIT (defaults when left out: 50,000 samples, 1,024 bytes). */
  seriesLimit?: number;
  labelLimit?: number;
}

export interface CollectorStats {
  scrapes: number;
  failures: number;
  bytes: number;
  samples: number;
  /** Scrapes skipped because the previous scrape of the same target was still running. */
  skipped: number;
}

export interface Logger {
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

/** How long a round's server rows wait for its slowest targets before being written anyway. */
const ROUND_SETTLE_MS = 2000;
/** A worker that died on its own is started again after this long, doubling (to 30 s) while it keeps dying within a minute. */
const RESTART_MS = 1000;
const MAX_RESTART_MS = 30_000;

/**
 * The built-in collector: scrapes every active, agent-configured server on a fixed interval.
 *
 * Two halves on two threads. The scrape worker (scrape-engine.ts) owns the round timer, HTTP,
 * parsing, derivation and counter memory; this half, on the main thread, reads the targets from
 * the database and hands them over, writes what the worker sends (server rows, services, chart
 * samples) and tells the evaluator (onWritten). So a slow query never delays a round's scrapes
 * and parsing a round never holds the API up; only the writes share the database's thread.
 */
export class ScrapeCollector {
  readonly stats: CollectorStats = { scrapes: 0, failures: 0, bytes: 0, samples: 0, skipped: 0 };
  private client: ScrapeWorkerClient | null = null;
  /** Bumped by forget(): results the worker sends for an older generation are dropped. */
  private generation = new Map<string, number>();
  /** Per target, the series keys in the order the worker numbers them (reset with each worker). */
  private keyLists = new Map<string, string[]>();
  private targetsTimer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private rollupTimer: NodeJS.Timeout | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private crashes = 0;
  private spawnedAt = 0;
  /** Batches of results are written one after another, in the order the worker sent them. */
  private chain: Promise<void> = Promise.resolve();
  private requests = 0;
  private waiting = new Map<number, (result: ScrapeResult | null | 'round') => void>();
  private lastTargets = '';
  private running = false;
  private stopped = false;
  /** When a round last wrote its server rows (the figures on them are then fresh); null: not yet. */
  private lastWrittenAt: number | null = null;
  private lastWriteError: string | null = null;
  /** Why the targets could not be read, while they cannot: rounds then do not count as fresh. */
  private targetsError: string | null = null;
  /** Database trouble while recording what was scraped: logged once per outage, not per target. */
  private readonly writes: OutageNotice;

  constructor(
    private readonly database: Database,
    private readonly writer: ObservationWriter,
    private readonly settings: ScrapeSettings,
    private readonly log: Logger,
    /** Called after a round's server rows are written (Monitoring.onRoundWritten). */
    private readonly onWritten: () => void = () => {},
  ) {
    this.writes = new OutageNotice(log, 'Recording scraped figures');
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopped = false;
    const client = this.worker();
    // The first round waits for the first list of targets, so it scrapes them all at once.
    void this.refreshTargets().finally(() => {
      if (this.client === client && this.running) client.post({ type: 'start' });
    });
    this.targetsTimer = setInterval(() => void this.refreshTargets(), this.settings.intervalS * 1000);
    this.pruneTimer = setInterval(() => void this.prune(), 10 * 60_000);
    this.rollupTimer = setInterval(() => void this.rollup(), 60_000);
    void this.prune();
  }

  /**
   * Resolves once the scrape worker has loaded (after start() or a first scrape()): a few
   * milliseconds from the build, longer from source, where tsx compiles it first.
   */
  async ready(): Promise<void> {
    await this.client?.ready;
  }

  /** Stops scraping: requests under way are cut short and do not mark their servers down; the worker thread ends. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopped = true;
    for (const timer of [this.targetsTimer, this.pruneTimer, this.rollupTimer, this.restartTimer]) if (timer) clearInterval(timer);
    this.targetsTimer = this.pruneTimer = this.rollupTimer = this.restartTimer = null;
    const client = this.client;
    this.client = null;
    for (const wake of this.waiting.values()) wake(null);
    this.waiting.clear();
    await client?.close();
    await this.chain;
    await this.writer.flush().catch((error) => this.failed(error));
    await this.writer.store?.flush().catch(() => undefined);
  }

  /** The worker, started if there is none (scrape() works without start(), for tests and scrapeNow). */
  private worker(): ScrapeWorkerClient {
    if (this.client) return this.client;
    const client = new ScrapeWorkerClient(
      (message) => this.onMessage(message),
      (error) => {
        if (this.client !== client) return;
        this.log.error({ err: error }, 'The scrape worker stopped unexpectedly; starting it again');
        // A worker that cannot even start (a broken install) is not restarted in a tight loop.
        this.crashes = Date.now() - this.spawnedAt > 60_000 ? 1 : this.crashes + 1;
        this.client = null;
        for (const wake of this.waiting.values()) wake(null);
        this.waiting.clear();
        if (this.running) {
          this.running = false;
          this.restartTimer = setTimeout(() => {
            this.restartTimer = null;
            if (!this.stopped) this.start();
          }, Math.min(MAX_RESTART_MS, RESTART_MS * 2 ** (this.crashes - 1)));
          for (const timer of [this.targetsTimer, this.pruneTimer, this.rollupTimer]) if (timer) clearInterval(timer);
          this.targetsTimer = this.pruneTimer = this.rollupTimer = null;
        }
      },
    );
    this.client = client;
    this.spawnedAt = Date.now();
    // A new worker numbers every target's series keys afresh.
    this.keyLists.clear();
    this.lastTargets = '';
    client.post({
      type: 'settings',
      settings: {
        intervalS: this.settings.intervalS,
        timeoutS: this.settings.timeoutS,
        concurrency: this.settings.concurrency,
        settleMs: ROUND_SETTLE_MS,
        seriesLimit: this.settings.seriesLimit ?? 50_000,
        labelLimit: this.settings.labelLimit ?? 1024,
      },
    });
    return client;
  }

  async targets(): Promise<Target[]> {
    const rows = await this.database.query<{ id: string; ipaddress: string; agent_port: number; operating_system: Os }>(
      `select id, ipaddress, agent_port, operating_system from servers where status = 'active' and is_agent_configured`,
    );
    return rows.map((r) => ({ id: r.id, ipaddress: r.ipaddress, agentPort: r.agent_port, os: r.operating_system }));
  }

  private withGeneration(target: Target): WorkerTarget {
    return { ...target, gen: this.generation.get(target.id) ?? 0 };
  }

  /** Reads the targets and hands them to the worker when they changed; its rounds use the latest list. */
  private async refreshTargets(): Promise<void> {
    let targets: Target[];
    try {
      targets = await this.targets();
      this.targetsError = null;
    } catch (error) {
      this.failed(error);
      this.targetsError = this.lastWriteError = `Could not read the scrape targets: ${(error as Error).message}`;
      return;
    }
    const list = targets.map((t) => this.withGeneration(t));
    const json = JSON.stringify(list);
    if (json === this.lastTargets || !this.client) return;
    this.lastTargets = json;
    this.client.post({ type: 'targets', targets: list });
  }

  /** One round over every target now, written when this resolves (benchmarks; the worker's timer runs rounds otherwise). */
  async tick(): Promise<void> {
    const client = this.worker();
    await this.refreshTargets();
    const request = ++this.requests;
    const done = new Promise<unknown>((resolve) => this.waiting.set(request, resolve));
    client.post({ type: 'round', request });
    await done;
  }

  private onMessage(message: FromWorker): void {
    switch (message.type) {
      case 'results':
        this.chain = this.chain.then(() => this.take(message)).catch((error) => this.log.error({ err: error }, 'Could not record a scrape round'));
        break;
      case 'now':
        this.waiting.get(message.request)?.(message.result);
        this.waiting.delete(message.request);
        break;
      case 'log':
        this.log[message.level]({ err: message.err, server: message.server }, message.msg);
        break;
    }
  }

  private async take(message: Extract<FromWorker, { type: 'results' }>): Promise<void> {
    for (const result of message.results) await this.record(result);
    if (message.phase === 'end') {
      if (message.roundS !== undefined) scrapeRoundDuration.observe(message.roundS);
      this.stats.skipped += message.skipped ?? 0;
    }
    if (message.phase) {
      await this.flushRows();
      if (this.running) this.onWritten();
    }
    if (message.phase === 'end') await this.writer.store?.flush().catch((error) => this.failed(error));
    if (message.request !== undefined) {
      this.waiting.get(message.request)?.('round');
      this.waiting.delete(message.request);
    }
  }

  private async flushRows(): Promise<void> {
    try {
      await this.writer.flush();
      this.writes.ok();
      if (this.targetsError) {
        this.lastWriteError = this.targetsError;
        return;
      }
      this.lastWrittenAt = Date.now();
      this.lastWriteError = null;
    } catch (error) {
      this.failed(error);
      this.lastWriteError = `Could not write the scraped figures: ${(error as Error).message}`;
    }
  }

  /** A write that failed: a full disk or a read-only database is remembered for readiness and the meta alert (ops/faults.ts). */
  private failed(error: unknown): void {
    faultsOf(this.database).record(error, this.database.poolCounts?.());
    this.writes.failed(error);
  }

  /** When figures were last written (ms), and what went wrong since, if anything (FreshnessWatch). */
  freshness(): { lastFreshAt: number | null; problem: string | null } {
    return { lastFreshAt: this.lastWrittenAt, problem: this.lastWriteError };
  }

  /** Queue one result for the next flush of server rows; chart samples go to the store's buffer. */
  private async record(result: ScrapeResult): Promise<void> {
    // The server was deleted or re-pointed since the worker was asked: not about this target any more.
    if ((this.generation.get(result.id) ?? 0) !== result.gen) return;
    const fetched = !(result.kind === 'down' && result.failedFetch);
    this.stats.scrapes++;
    scrapeDuration.observe({ outcome: fetched ? 'success' : 'failure' }, result.durationS);
    scrapesTotal.inc({ outcome: fetched ? 'success' : 'failure' });
    this.stats.bytes += result.bytes;
    this.stats.samples += result.samples;
    try {
      if (result.kind === 'down') {
        this.stats.failures++;
        await this.writer.queueDown(result.id, result.at, result.reason);
      } else if (result.kind === 'limited') {
        this.stats.failures++;
        await this.writer.queueOverLimits(result.id, result.at, result.reason);
      } else if (result.kind === 'error') {
        this.stats.failures++;
        this.log.warn({ err: result.message, server: result.id }, 'Could not use a scrape');
      } else {
        let keys = this.keyLists.get(result.id);
        if (!keys) this.keyLists.set(result.id, (keys = []));
        let series: { keys: string[]; values: Float64Array } | undefined;
        if (keys.length >= result.keyBase) {
          // Numbered afresh (the worker forgot this target): a new list, never the old one cut,
          // since the store caches its column map by list and length.
          if (keys.length > result.keyBase) this.keyLists.set(result.id, (keys = keys.slice(0, result.keyBase)));
          for (const key of result.keysAdded) keys.push(key);
          series = { keys, values: result.values };
        } else {
          // The keys before keyBase were never seen here: have the worker number them afresh.
          this.client?.post({ type: 'forget', id: result.id });
        }
        const usage = {} as Usage;
        usageFields.forEach((field, i) => {
          const v = result.usage[i]!;
          usage[field] = Number.isNaN(v) ? null : v;
        });
        try {
          await this.writer.queueUp(result.id, result.at, usage, result.services ?? null, series);
        } catch (error) {
          // The services this result carried may not be written: have the worker send them again.
          if (result.services) this.client?.post({ type: 'resendServices', id: result.id });
          throw error;
        }
      }
    } catch (error) {
      this.stats.failures++;
      if (databaseUnavailable(error) || faultsOf(this.database).record(error, this.database.poolCounts?.())) this.failed(error);
      else this.log.warn({ err: error, server: result.id }, 'Could not use a scrape');
    }
  }

  /** Scrape one target now and record the outcome, written when this resolves (used by tests and `scrapeNow`). */
  async scrape(target: Target): Promise<void> {
    const client = this.worker();
    const request = ++this.requests;
    const answer = new Promise<ScrapeResult | null | 'round'>((resolve) => this.waiting.set(request, resolve));
    client.post({ type: 'scrapeNow', request, target: this.withGeneration(target) });
    const result = await answer;
    if (result && result !== 'round') await (this.chain = this.chain.then(() => this.record(result)));
    await this.flushRows();
  }

  /** Scrape one server now (a new or re-pointed one); skipped if its scrape is already under way. */
  async scrapeNow(serverId: string): Promise<void> {
    const target = (await this.targets()).find((t) => t.id === serverId);
    if (!target) return;
    await this.scrape(target);
    await this.writer.store?.flush();
  }

  /** Five-minute averages for long chart ranges (MetricStore.rollup): a backlog catches up at 15 minutes a minute. */
  private async rollup(): Promise<void> {
    try {
      await this.writer.store?.rollup(Date.now());
    } catch (error) {
      this.failed(error);
    }
  }

  private async prune(): Promise<void> {
    try {
      await this.writer.store?.prune(Date.now() - this.settings.retentionHours * 3_600_000);
    } catch (error) {
      this.failed(error);
    }
  }

  forget(serverId: string): void {
    this.generation.set(serverId, (this.generation.get(serverId) ?? 0) + 1);
    this.keyLists.delete(serverId);
    this.client?.post({ type: 'forget', id: serverId });
    this.writer.forget(serverId);
    // The worker's list names the old generation: send the new one now rather than at the next interval.
    this.lastTargets = '';
    if (this.running) void this.refreshTargets();
  }
}
