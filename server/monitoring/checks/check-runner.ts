import { setMaxListeners } from 'node:events';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { CheckKind, CheckSettings } from '../../contract/checks';
import type { Database } from '../../db/client';
import type { Logger } from '../scrape-collector';
import { CheckStore } from './check-store';
import { probe, type ProbeResult } from './probe';
import type { OutboundPolicy } from '../../outbound/policy';
import { Slots } from '../slots';
import type { SecretBox } from '../../channels/secret-box';
import { openHeaders, type StoredHeader } from './check-headers';

export interface CheckRunnerSettings {
  /** Checks running at once; a hanging target holds one slot until its timeout. */
  concurrency: number;
  /** Raw results are kept this many hours (rollups 92 days). */
  retentionHours: number;
  /** Runs on request (run-now, or at once after an edit) per check in any minute; default 6. */
  runNowPerMinute?: number;
}

interface Scheduled {
  id: string;
  name: string;
  settings: CheckSettings;
  /** Why the check cannot run as stored (its headers sealed with another key): its result, every run. */
  unreadable: string | null;
  paused: boolean;
  /** updated_at of the row: a result of a run that began before an edit is dropped. */
  version: number;
  dueMs: number;
}

/** The latest result of each check, for /metrics (Prometheus keeps the history). */
export interface LatestResult {
  id: string;
  name: string;
  kind: CheckKind;
  up: boolean;
  latencyMs: number | null;
  statusCode: number | null;
  certExpiresAt: Date | null;
  atMs: number;
}

interface CheckRow {
  id: string;
  name: string;
  kind: CheckKind;
  url: string | null;
  host: string | null;
  port: number | null;
  method: CheckSettings['method'];
  expected_status: string;
  keyword: string | null;
  keyword_mode: CheckSettings['keywordMode'];
  headers: StoredHeader[] | string;
  follow_redirects: boolean;
  ignore_tls_errors: boolean;
  record_type: CheckSettings['recordType'];
  expected_answer: string | null;
  resolver: string | null;
  interval_s: number;
  timeout_s: number;
  paused: boolean;
  updated_at: Date | string;
  last_checked_at: Date | string | null;
}

const SELECT = `select id, name, kind, url, host, port, method, expected_status, keyword, keyword_mode, headers, follow_redirects, ignore_tls_errors,
  record_type, expected_answer, resolver, interval_s, timeout_s, paused, updated_at, last_checked_at from checks`;

/** The settings a probe takes, header values opened; throws CheckHeadersUnreadable. */
export function rowToSettings(r: CheckRow, box: SecretBox | undefined): CheckSettings {
  return {
    kind: r.kind,
    url: r.url,
    host: r.host,
    port: r.port,
    method: r.method,
    expectedStatus: r.expected_status,
    keyword: r.keyword,
    keywordMode: r.keyword_mode,
    headers: openHeaders(box, r.id, r.headers),
    followRedirects: r.follow_redirects,
    ignoreTlsErrors: r.ignore_tls_errors,
    recordType: r.record_type,
    expectedAnswer: r.expected_answer,
    resolver: r.resolver,
    intervalSeconds: r.interval_s,
    timeoutSeconds: r.timeout_s,
  };
}

/** The result of a check that cannot be made as stored (nothing was sent). */
const cannotRun = (error: string): ProbeResult => ({ up: false, latencyMs: null, statusCode: null, certExpiresAt: null, certProblem: null, error });

/** A stable spread of first runs over the interval, so a restart does not run every check at once. */
function offsetMs(id: string, intervalMs: number): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return h % Math.max(1, intervalMs);
}

const TICK_MS = 250;
const FLUSH_MS = 1000;
/** Other processes (replicas) change checks too: the schedule is re-read this often. */
const RELOAD_MS = 30_000;
const PRUNE_MS = 10 * 60_000;

/**
 * Runs every check that is not paused at its interval (issue 16), started and stopped with
 * Monitoring, so whatever decides which process runs background work (the leader) covers it.
 * One timer looks for due checks four times a second; at most `concurrency` run at once, a slow
 * one never delays the others' schedule, and a check still running when its next turn comes is
 * skipped, not queued twice. Results are written in batches once a second (CheckStore), then
 * `onWritten` lets the alert evaluator look at once.
 */
export class CheckRunner {
  readonly store: CheckStore;
  readonly stats = { runs: 0, failures: 0, skipped: 0 };
  readonly latest = new Map<string, LatestResult>();
  private schedule = new Map<string, Scheduled>();
  private inFlight = new Set<string>();
  private readonly slots = new Slots(() => this.settings.concurrency);
  private timers: NodeJS.Timeout[] = [];
  /** The tick and flush timers, while armed (arm()). */
  private fast: NodeJS.Timeout[] | null = null;
  private aborter = new AbortController();
  private started = false;
  private loading: Promise<void> | null = null;
  private flushing: Promise<void> | null = null;
  private runs = new Set<Promise<void>>();
  private firstLoadDone = false;
  /** Set by whoever wires the evaluator (app.ts), like Monitoring.onRoundWritten. */
  onWritten: () => void = () => {};
  /** Opens the check header values (app.ts gives the box that seals channel secrets). */
  secretBox: SecretBox | undefined;
  /** Decides every connection a check makes (app.ts gives the console's policy). */
  outbound: OutboundPolicy | undefined;
  /**
   * Runs on request per check: what a run answers is an oracle (a keyword check says whether the
   * page holds a text), so asking it again and again must be slow. Per process, like sign-in limits.
   */
  private readonly onDemand: RateLimiterMemory;
  /**
   * And across checks: a new check runs at once too, so one check made per guess would otherwise
   * ask as fast as the API takes creations. Ten checks' worth per minute, per process.
   */
  private readonly onDemandAll: RateLimiterMemory;

  constructor(
    private readonly database: Database,
    private readonly settings: CheckRunnerSettings,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new CheckStore(database);
    this.onDemand = new RateLimiterMemory({ keyPrefix: 'check-run-now', points: this.runNowPerMinute, duration: 60 });
    this.onDemandAll = new RateLimiterMemory({ keyPrefix: 'check-run-now-all', points: this.runNowAcrossChecksPerMinute, duration: 60 });
  }

  get runNowPerMinute(): number {
    return this.settings.runNowPerMinute ?? 6;
  }

  /** Runs on request of all checks together in any minute: ten times the per-check budget. */
  get runNowAcrossChecksPerMinute(): number {
    return this.runNowPerMinute * 10;
  }

  /**
   * Takes one run on request of check `id`: null when it may run now, else the seconds until it
   * may and whether the check's own budget or the one across checks is spent. Shared by run-now,
   * the run at once after an edit and a new check's first run, so editing a keyword over and
   * over, or making a check per guess, is limited as asking run-now is.
   */
  async takeRunOnDemand(id: string): Promise<{ waitS: number; acrossChecks: boolean } | null> {
    const waitS = (rejected: unknown) => {
      if (!(rejected instanceof RateLimiterRes)) throw rejected;
      return Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
    };
    try {
      await this.onDemand.consume(id);
    } catch (rejected) {
      return { waitS: waitS(rejected), acrossChecks: false };
    }
    try {
      await this.onDemandAll.consume('all');
    } catch (rejected) {
      // Not run: the check's own budget keeps the point.
      await this.onDemand.reward(id, 1);
      return { waitS: waitS(rejected), acrossChecks: true };
    }
    return null;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.aborter = new AbortController();
    setMaxListeners(0, this.aborter.signal);
    void this.reload();
    this.timers = [setInterval(() => void this.reload(), RELOAD_MS), setInterval(() => void this.prune(), PRUNE_MS)];
  }

  /**
   * The tick and flush timers run only while there is something to run or write: a console
   * without checks is not woken five times a second for nothing (issue 17 §2). Armed by reload()
   * when it finds checks; the flush disarms them once no check is left and all is written.
   */
  private arm(): void {
    if (this.fast || !this.started || this.schedule.size === 0) return;
    this.fast = [
      setInterval(() => this.tick(), TICK_MS),
      setInterval(() => {
        void this.flush();
        if (this.schedule.size === 0 && this.runs.size === 0 && !this.store.queued && !this.flushing) this.disarm();
      }, FLUSH_MS),
    ];
  }

  private disarm(): void {
    for (const t of this.fast ?? []) clearInterval(t);
    this.fast = null;
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.disarm();
    this.aborter.abort();
    this.slots.cancelWaiting();
    await Promise.all(this.runs);
    await this.loading?.catch(() => undefined);
    await this.flush();
  }

  /** Re-read the checks (after a change through the API, and every 30 s for changes made elsewhere). */
  reload(): Promise<void> {
    if (this.loading) return this.loading;
    this.loading = (async () => {
      try {
        const rows = await this.database.query<CheckRow>(SELECT);
        const now = this.now();
        const next = new Map<string, Scheduled>();
        for (const r of rows) {
          const version = new Date(r.updated_at).getTime();
          const old = this.schedule.get(r.id);
          const intervalMs = r.interval_s * 1000;
          let dueMs: number;
          if (old && old.version === version) dueMs = old.dueMs;
          // Edited (or resumed): run with the new settings now, unless it ran on request too often
          // this minute; then at its next turn.
          else if (old) dueMs = !this.started || (await this.takeRunOnDemand(r.id)) === null ? now : old.dueMs;
          else if (r.last_checked_at) {
            // Known before a restart: continue its rhythm; overdue ones spread over one interval.
            const last = new Date(r.last_checked_at).getTime();
            dueMs = last + intervalMs > now ? last + intervalMs : now + offsetMs(r.id, Math.min(intervalMs, 30_000));
          } else if (!this.firstLoadDone) dueMs = now + offsetMs(r.id, Math.min(intervalMs, 5_000));
          // New since the last read: now, from the budget of runs on request; past it at its first turn.
          else dueMs = !this.started || (await this.takeRunOnDemand(r.id)) === null ? now : now + intervalMs;
          next.set(r.id, { id: r.id, name: r.name, ...this.settingsOf(r), paused: r.paused, version, dueMs });
        }
        for (const id of this.latest.keys()) if (!next.has(id)) this.latest.delete(id);
        this.schedule = next;
        this.firstLoadDone = true;
        this.arm();
      } catch (error) {
        this.log.error({ err: error }, 'Could not read the checks');
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  /** Starts every due check (never one already running). */
  tick(): void {
    if (!this.started) return;
    const now = this.now();
    for (const s of this.schedule.values()) {
      if (s.paused || s.dueMs > now) continue;
      // The next turn counts from when this one was due, so a check keeps its rhythm.
      const intervalMs = s.settings.intervalSeconds * 1000;
      s.dueMs = s.dueMs + intervalMs > now ? s.dueMs + intervalMs : now + intervalMs;
      if (this.inFlight.has(s.id)) {
        this.stats.skipped++;
        continue;
      }
      const run: Promise<void> = this.runScheduled(s).finally(() => this.runs.delete(run));
      this.runs.add(run);
    }
  }

  private settingsOf(r: CheckRow): { settings: CheckSettings; unreadable: string | null } {
    try {
      return { settings: rowToSettings(r, this.secretBox), unreadable: null };
    } catch (err) {
      return { settings: { ...rowToSettings({ ...r, headers: [] }, undefined) }, unreadable: (err as Error).message };
    }
  }

  private async runScheduled(s: Scheduled): Promise<void> {
    this.inFlight.add(s.id);
    try {
      if (!(await this.slots.acquire())) return;
      try {
        if (!this.started) return;
        const atMs = this.now();
        const result = s.unreadable ? cannotRun(s.unreadable) : await probe(s.settings, { signal: this.aborter.signal, outbound: this.outbound });
        if (this.aborter.signal.aborted) return;
        // Edited or deleted meanwhile: this answer is about settings the check no longer has.
        if (this.schedule.get(s.id)?.version !== s.version) return;
        this.record(s.id, s.name, s.settings.kind, atMs, result);
      } finally {
        this.slots.release();
      }
    } finally {
      this.inFlight.delete(s.id);
    }
  }

  private record(id: string, name: string, kind: CheckKind, atMs: number, result: ProbeResult): void {
    this.stats.runs++;
    if (!result.up) this.stats.failures++;
    this.store.queue({ checkId: id, atMs, result });
    this.latest.set(id, { id, name, kind, up: result.up, latencyMs: result.latencyMs, statusCode: result.statusCode, certExpiresAt: result.certExpiresAt, atMs });
  }


  /** Writes the queued results, then tells the evaluator. */
  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (!this.store.queued) return;
    this.flushing = (async () => {
      try {
        const n = await this.store.flush();
        if (n) this.onWritten();
      } catch (error) {
        this.log.error({ err: error }, 'Could not write check results');
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  /**
   * Runs one check now, whatever its schedule or pause, and writes the result before resolving
   * (check.run-now; the caller takes the run from takeRunOnDemand first). Works also where the
   * loop is off (tests, a process that is not the leader).
   */
  async runNow(id: string): Promise<ProbeResult | null> {
    const [row] = await this.database.query<CheckRow>(`${SELECT} where id = $1`, [id]);
    if (!row) return null;
    const atMs = this.now();
    const opened = this.settingsOf(row);
    const result = opened.unreadable ? cannotRun(opened.unreadable) : await probe(opened.settings, { outbound: this.outbound });
    this.record(row.id, row.name, row.kind, atMs, result);
    const scheduled = this.schedule.get(id);
    if (scheduled) scheduled.dueMs = atMs + row.interval_s * 1000;
    await this.store.flush();
    this.onWritten();
    return result;
  }

  forget(id: string): void {
    this.schedule.delete(id);
    this.latest.delete(id);
  }

  private async prune(): Promise<void> {
    try {
      await this.store.prune(this.now(), this.settings.retentionHours);
    } catch (error) {
      this.log.error({ err: error }, 'Could not prune old check results');
    }
  }
}
