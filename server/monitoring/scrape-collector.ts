import { setMaxListeners } from 'node:events';
import http from 'node:http';
import type { Database } from '../db/client';
import { deriveScrape } from './derive';
import { parseExpositionDetailed } from './exposition';
import type { ObservationWriter } from './observations';
import type { CounterMemory, Os } from './types';
import { databaseUnavailable } from '../db/unavailable';
import { OutageNotice } from '../ops/outage';
import { scrapeDuration, scrapeRoundDuration, scrapesTotal } from '../ops/metrics';

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

const MAX_BODY = 16 * 1024 * 1024;
/** How long a round's server rows wait for its slowest targets before being written anyway. */
const ROUND_SETTLE_MS = 2000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1, scheduling: 'lifo' });

/**
 * GET http://ip:port/metrics with a hard deadline; resolves the body or rejects with a readable
 * reason. `signal` ends the request early (the collector stopping).
 */
export async function fetchMetrics(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  const started = Date.now();
  try {
    return await fetchOnce(host, port, timeoutMs, signal);
  } catch (error) {
    // A kept-alive socket the exporter closed while idle fails at once ("socket hang up",
    // ECONNRESET): that says nothing about the exporter, so ask again on a fresh connection.
    const left = timeoutMs - (Date.now() - started);
    if ((error as { staleSocket?: boolean }).staleSocket && left > 0 && !signal?.aborted) return fetchOnce(host, port, left, signal);
    throw error;
  }
}

function fetchOnce(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host, port, path: '/metrics', agent, headers: { accept: 'text/plain;version=0.0.4' }, timeout: timeoutMs, signal }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`The exporter answered HTTP ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      let body = '';
      response.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > MAX_BODY) request.destroy(new Error('The exporter sent more than 16 MB'));
      });
      response.on('end', () => resolve(body));
      response.on('error', reject);
    });
    const deadline = setTimeout(() => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`)), timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`)));
    request.on('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'ECONNREFUSED' ? `Connection refused at ${host}:${port}` : error.code === 'EHOSTUNREACH' ? `Host ${host} is unreachable` : error.message;
      const staleSocket = request.reusedSocket && (error.code === 'ECONNRESET' || error.message === 'socket hang up');
      reject(Object.assign(new Error(reason), { staleSocket }));
    });
  });
}

/** The collector's stop signal: every scrape in flight listens on it (SCRAPE_CONCURRENCY of them, by design). */
function stopSignal(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/**
 * The built-in collector: scrapes every active, agent-configured server on a fixed interval.
 * Each target runs on its own: a slow or dead exporter holds one of `concurrency` slots until
 * its timeout and never delays the others' schedule (each round starts on time, whatever the
 * previous one still waits for); a target still being scraped when its next turn comes is
 * skipped rather than queued twice.
 */
export class ScrapeCollector {
  readonly stats: CollectorStats = { scrapes: 0, failures: 0, bytes: 0, samples: 0, skipped: 0 };
  private memory = new Map<string, CounterMemory>();
  /** Bumped by forget(): a scrape that was under way for the old target is then dropped. */
  private generation = new Map<string, number>();
  private inFlight = new Set<string>();
  private running = 0;
  /** Scrapes waiting for a slot; resolved with true when handed one, false when stopping. */
  private queue: ((granted: boolean) => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private rollupTimer: NodeJS.Timeout | null = null;
  /** Rounds not finished yet (a round lasts until its slowest target answers or times out). */
  private rounds = new Set<Promise<void>>();
  /** A round is still reading the target list: the next one is skipped, not piled up behind it. */
  private readingTargets = false;
  private aborter = stopSignal();
  private stopped = false;
  /** When a round last wrote its server rows (the figures on them are then fresh); null: not yet. */
  private lastWrittenAt: number | null = null;
  private lastWriteError: string | null = null;
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
    this.stopped = false;
    this.aborter = stopSignal();
    const round = () => {
      if (this.stopped || this.readingTargets) return;
      const done: Promise<void> = this.tick().finally(() => this.rounds.delete(done));
      this.rounds.add(done);
    };
    round();
    this.timer = setInterval(round, this.settings.intervalS * 1000);
    this.pruneTimer = setInterval(() => void this.prune(), 10 * 60_000);
    this.rollupTimer = setInterval(() => void this.rollup(), 60_000);
    void this.prune();
  }

  /** Stops scraping: requests under way are cut short and do not mark their servers down. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    if (this.rollupTimer) clearInterval(this.rollupTimer);
    this.timer = this.pruneTimer = this.rollupTimer = null;
    this.aborter.abort();
    this.queue.splice(0).forEach((wake) => wake(false));
    await Promise.all(this.rounds);
    await this.writer.flush().catch((error) => this.writes.failed(error));
    await this.writer.store?.flush().catch(() => undefined);
  }

  async targets(): Promise<Target[]> {
    const rows = await this.database.query<{ id: string; ipaddress: string; agent_port: number; operating_system: Os }>(
      `select id, ipaddress, agent_port, operating_system from servers where status = 'active' and is_agent_configured`,
    );
    return rows.map((r) => ({ id: r.id, ipaddress: r.ipaddress, agentPort: r.agent_port, os: r.operating_system }));
  }

  /** One round over every target; resolves when all of them answered or timed out. */
  async tick(): Promise<void> {
    let targets: Target[];
    this.readingTargets = true;
    try {
      targets = await this.targets();
    } catch (error) {
      this.writes.failed(error);
      this.lastWriteError = `Could not read the scrape targets: ${(error as Error).message}`;
      return;
    } finally {
      this.readingTargets = false;
    }
    // Nothing to scrape is nothing missed.
    if (!targets.length) this.lastWrittenAt = Date.now();
    const live = new Set(targets.map((t) => t.id));
    for (const id of this.memory.keys()) if (!live.has(id)) this.memory.delete(id);
    // Server rows are written together when the round ends (one statement, not one per
    // target), and once earlier if a slow target still holds the round: the others' rows then
    // wait ROUND_SETTLE_MS, not the whole timeout. Samples wait for the end of the round.
    const roundStarted = Date.now();
    const all = Promise.all(targets.map((t) => this.scrapeWhenFree(t))).finally(() => scrapeRoundDuration.observe((Date.now() - roundStarted) / 1000));
    let settle: NodeJS.Timeout | undefined;
    const early = new Promise<void>((resolve) => (settle = setTimeout(resolve, ROUND_SETTLE_MS)));
    // Each write of rows is announced: the early one too, so one hanging exporter does not hold
    // the others' threshold crossings back from the alert evaluator until its timeout.
    if ((await Promise.race([all.then(() => 'done' as const), early])) !== 'done') {
      await this.flushRows();
      if (!this.stopped) this.onWritten();
    }
    clearTimeout(settle);
    await all;
    await this.flushRows();
    if (!this.stopped) this.onWritten();
    await this.writer.store?.flush().catch((error) => this.writes.failed(error));
  }

  private async flushRows(): Promise<void> {
    try {
      await this.writer.flush();
      this.lastWrittenAt = Date.now();
      this.lastWriteError = null;
      this.writes.ok();
    } catch (error) {
      this.writes.failed(error);
      this.lastWriteError = `Could not write the scraped figures: ${(error as Error).message}`;
    }
  }

  /** When figures were last written (ms), and what went wrong since, if anything (FreshnessWatch). */
  freshness(): { lastFreshAt: number | null; problem: string | null } {
    return { lastFreshAt: this.lastWrittenAt, problem: this.lastWriteError };
  }

  /** Takes one of `concurrency` slots; false when the collector stopped while waiting. */
  private async acquire(): Promise<boolean> {
    if (this.running < this.settings.concurrency) {
      this.running++;
      return true;
    }
    // release() hands its slot straight to the first waiter, so none can be taken in between.
    return new Promise<boolean>((resolve) => this.queue.push(resolve));
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next(true);
    else this.running--;
  }

  private async scrapeWhenFree(target: Target): Promise<void> {
    if (this.inFlight.has(target.id)) {
      this.stats.skipped++;
      return;
    }
    this.inFlight.add(target.id);
    try {
      if (!(await this.acquire())) return;
      try {
        if (!this.stopped) await this.collect(target);
      } finally {
        this.release();
      }
    } finally {
      this.inFlight.delete(target.id);
    }
  }

  /** Scrape one target now and record the outcome, written when this resolves (used by tests and `scrapeNow`). */
  async scrape(target: Target): Promise<void> {
    await this.collect(target);
    await this.flushRows();
  }

  /** Scrape one target and queue the outcome for the round's flush. */
  private async collect(target: Target): Promise<void> {
    const started = Date.now();
    const generation = this.generation.get(target.id) ?? 0;
    // The server was deleted or re-pointed meanwhile: this answer is about a target it no longer has.
    const stale = () => (this.generation.get(target.id) ?? 0) !== generation;
    let text: string;
    try {
      text = await fetchMetrics(target.ipaddress, target.agentPort, this.settings.timeoutS * 1000, this.aborter.signal);
    } catch (error) {
      if (this.aborter.signal.aborted || stale()) return;
      this.stats.scrapes++;
      this.stats.failures++;
      scrapeDuration.observe({ outcome: 'failure' }, (Date.now() - started) / 1000);
      scrapesTotal.inc({ outcome: 'failure' });
      await this.markDown(target, started, (error as Error).message);
      return;
    }
    this.stats.scrapes++;
    this.stats.bytes += text.length;
    scrapeDuration.observe({ outcome: 'success' }, (Date.now() - started) / 1000);
    scrapesTotal.inc({ outcome: 'success' });
    if (stale()) return;
    try {
      const parsed = parseExpositionDetailed(text);
      this.stats.samples += parsed.samples;
      if (parsed.samples === 0) {
        // Something answers on the port, but not an exporter (a web page, an empty body).
        this.stats.failures++;
        await this.markDown(target, started, 'The answer held no metrics: is an exporter listening on this port?');
        return;
      }
      const { derived, memory } = deriveScrape(target.os, parsed.scrape, started, this.memory.get(target.id));
      this.memory.set(target.id, memory);
      await this.writer.queueUp(target.id, started, derived.usage, derived.servicesExposed ? derived.services : null, derived.series);
    } catch (error) {
      this.stats.failures++;
      if (databaseUnavailable(error)) this.writes.failed(error);
      else this.log.warn({ err: error, server: target.id }, 'Could not use a scrape');
    }
  }

  private async markDown(target: Target, atMs: number, reason: string): Promise<void> {
    await this.writer.queueDown(target.id, atMs, reason).catch((e) => this.writes.failed(e));
  }

  /** Scrape one server now (a new or re-pointed one); skipped if its scrape is already under way. */
  async scrapeNow(serverId: string): Promise<void> {
    if (this.inFlight.has(serverId)) return;
    const target = (await this.targets()).find((t) => t.id === serverId);
    if (!target || this.inFlight.has(serverId)) return;
    this.inFlight.add(serverId);
    try {
      await this.scrape(target);
    } finally {
      this.inFlight.delete(serverId);
    }
    await this.writer.store?.flush();
  }
  /** Five-minute averages for long chart ranges (MetricStore.rollup): a backlog catches up at 15 minutes a minute. */
  private async rollup(): Promise<void> {
    try {
      await this.writer.store?.rollup(Date.now());
    } catch (error) {
      this.writes.failed(error);
    }
  }

  private async prune(): Promise<void> {
    try {
      await this.writer.store?.prune(Date.now() - this.settings.retentionHours * 3_600_000);
    } catch (error) {
      this.writes.failed(error);
    }
  }

  forget(serverId: string): void {
    this.generation.set(serverId, (this.generation.get(serverId) ?? 0) + 1);
    this.memory.delete(serverId);
    this.writer.forget(serverId);
  }
}
