import http from 'node:http';
import type { Database } from '../db/client';
import { deriveScrape } from './derive';
import { parseExposition } from './exposition';
import type { ObservationWriter } from './observations';
import type { CounterMemory, Os } from './types';

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
const agent = new http.Agent({ keepAlive: true, maxSockets: 1, scheduling: 'lifo' });

/** GET http://ip:port/metrics with a hard deadline; resolves the body or rejects with a readable reason. */
export function fetchMetrics(host: string, port: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host, port, path: '/metrics', agent, headers: { accept: 'text/plain;version=0.0.4' }, timeout: timeoutMs }, (response) => {
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
      reject(new Error(reason));
    });
  });
}

/**
 * The built-in collector: scrapes every active, agent-configured server on a fixed interval.
 * Each target runs on its own: a slow or dead exporter holds one of `concurrency` slots until
 * its timeout and never delays the others' schedule; a target still being scraped when its
 * next turn comes is skipped rather than queued twice.
 */
export class ScrapeCollector {
  readonly stats: CollectorStats = { scrapes: 0, failures: 0, bytes: 0, samples: 0, skipped: 0 };
  private memory = new Map<string, CounterMemory>();
  private inFlight = new Set<string>();
  private running = 0;
  private queue: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly writer: ObservationWriter,
    private readonly settings: ScrapeSettings,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (!this.ticking) this.ticking = this.tick().finally(() => (this.ticking = null));
    };
    tick();
    this.timer = setInterval(tick, this.settings.intervalS * 1000);
    this.pruneTimer = setInterval(() => void this.prune(), 10 * 60_000);
    void this.prune();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.timer = this.pruneTimer = null;
    this.queue.splice(0).forEach((run) => run());
    await this.ticking;
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
    try {
      targets = await this.targets();
    } catch (error) {
      this.log.error({ err: error }, 'Could not read the scrape targets');
      return;
    }
    const live = new Set(targets.map((t) => t.id));
    for (const id of this.memory.keys()) if (!live.has(id)) this.memory.delete(id);
    await Promise.all(targets.map((t) => this.scrapeWhenFree(t)));
    await this.writer.store?.flush().catch((error) => this.log.error({ err: error }, 'Could not write metric samples'));
  }

  private async scrapeWhenFree(target: Target): Promise<void> {
    if (this.inFlight.has(target.id)) {
      this.stats.skipped++;
      return;
    }
    this.inFlight.add(target.id);
    try {
      if (this.running >= this.settings.concurrency) await new Promise<void>((resolve) => this.queue.push(resolve));
      if (this.stopped) return;
      this.running++;
      try {
        await this.scrape(target);
      } finally {
        this.running--;
        this.queue.shift()?.();
      }
    } finally {
      this.inFlight.delete(target.id);
    }
  }

  /** Scrape one target now and record the outcome (also used by tests and `scrapeNow`). */
  async scrape(target: Target): Promise<void> {
    const started = Date.now();
    let text: string;
    try {
      text = await fetchMetrics(target.ipaddress, target.agentPort, this.settings.timeoutS * 1000);
    } catch (error) {
      this.stats.scrapes++;
      this.stats.failures++;
      await this.writer.down(target.id, started, (error as Error).message).catch((e) => this.log.error({ err: e, server: target.id }, 'Could not record a failed scrape'));
      return;
    }
    this.stats.scrapes++;
    this.stats.bytes += text.length;
    try {
      const scrape = parseExposition(text);
      for (const samples of scrape.values()) this.stats.samples += samples.length;
      const { derived, memory } = deriveScrape(target.os, scrape, started, this.memory.get(target.id));
      this.memory.set(target.id, memory);
      await this.writer.up(target.id, started, derived.usage, derived.servicesExposed ? derived.services : null, derived.series);
    } catch (error) {
      this.stats.failures++;
      this.log.warn({ err: error, server: target.id }, 'Could not use a scrape');
    }
  }

  async scrapeNow(serverId: string): Promise<void> {
    const target = (await this.targets()).find((t) => t.id === serverId);
    if (target) await this.scrape(target);
    await this.writer.store?.flush();
  }

  private async prune(): Promise<void> {
    try {
      await this.writer.store?.prune(Date.now() - this.settings.retentionHours * 3_600_000);
    } catch (error) {
      this.log.error({ err: error }, 'Could not prune old metric samples');
    }
  }

  forget(serverId: string): void {
    this.memory.delete(serverId);
    this.writer.forget(serverId);
  }
}
