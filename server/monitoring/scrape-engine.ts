/**
 * The scraping half of the built-in collector, run in a worker thread (scrape-worker.ts): the
 * round timer, the concurrency slots, HTTP, parsing, derivation and the counter memory between
 * scrapes. It never touches the database: it posts compact results (scrape-protocol.ts) that
 * the main thread writes (scrape-collector.ts). A slow query or a busy API on the main thread
 * therefore never delays a round, and a round's parsing never holds a request up.
 *
 * Each target runs on its own: a slow or dead exporter holds one of `concurrency` slots until
 * its timeout and never delays the others' schedule (each round starts on time, whatever the
 * previous one still waits for); a target still being scraped when its next turn comes is
 * skipped rather than queued twice.
 */
import { setMaxListeners } from 'node:events';
import { deriveScrape } from './derive';
import { parseExpositionDetailed, type ExpositionLimits } from './exposition';
import { fetchMetricsBytes } from './fetch-metrics';
import type { EngineSettings, FromWorker, ScrapeResult, WorkerTarget } from './scrape-protocol';
import { usageFields, type CounterMemory, type Derived, type Os } from './types';
import { Slots } from './slots';

/** What the worker remembers of one target between scrapes (reset when its generation changes). */
interface TargetState {
  gen: number;
  memory?: CounterMemory;
  /** The families the last derivation asked for: the next parse reads only these. */
  wanted?: ReadonlySet<string>;
  /** Series key → position in the values sent; keys are only ever appended. */
  keys: Map<string, number>;
  /** The services last sent, as one string, to send them again only when they change. */
  services?: string;
}

/** Results wait at most this long to be sent together (fewer, larger messages). */
const BATCH_MS = 50;
const BATCH_MAX = 100;

/**
 * Parse and derive, reading only the families this target's last derivation asked for. When the
 * derivation asks for one outside them (an exporter upgraded, a disk added under a new name),
 * the same text is parsed again in full and derived again from the same counter memory, so what
 * comes out is always what a full parse gives.
 */
export function parseAndDerive(
  os: Os,
  body: string | Uint8Array,
  atMs: number,
  state: { memory?: CounterMemory; wanted?: ReadonlySet<string> },
  limits?: ExpositionLimits,
): { samples: number; derived: Derived | null; overLimit?: string } {
  const wanted = state.wanted;
  // The body as fetched: bytes (fetchMetricsBytes), never decoded as a whole.
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  let parsed = parseExpositionDetailed(bytes, wanted, limits);
  // Nothing of a body past the limits is used, not even the counters (the next good scrape starts its rates afresh).
  if (parsed.overLimit) return { samples: parsed.samples, derived: null, overLimit: parsed.overLimit };
  if (parsed.samples === 0) return { samples: 0, derived: null };
  let out = deriveScrape(os, parsed.scrape, atMs, state.memory);
  if (wanted) {
    let more = false;
    for (const name of out.asked) if (!wanted.has(name)) more = true;
    if (more) {
      parsed = parseExpositionDetailed(bytes, undefined, limits);
      if (parsed.overLimit) return { samples: parsed.samples, derived: null, overLimit: parsed.overLimit };
      out = deriveScrape(os, parsed.scrape, atMs, state.memory);
      state.wanted = out.asked;
    }
  } else state.wanted = out.asked;
  state.memory = out.memory;
  return { samples: parsed.samples, derived: out.derived };
}

function stopSignal(): AbortController {
  const controller = new AbortController();
  // Every scrape in flight listens on it (SCRAPE_CONCURRENCY of them, by design).
  setMaxListeners(0, controller.signal);
  return controller;
}

export class ScrapeEngine {
  private settings: EngineSettings = { intervalS: 15, timeoutS: 10, concurrency: 32, settleMs: 2000, seriesLimit: 50_000, labelLimit: 1024 };
  private targets: WorkerTarget[] = [];
  private state = new Map<string, TargetState>();
  private inFlight = new Set<string>();
  private readonly slots = new Slots(() => this.settings.concurrency);
  private timer: NodeJS.Timeout | null = null;
  private rounds = new Set<Promise<void>>();
  private readonly aborter = stopSignal();
  /** Set once by stop(): the worker is then terminated, never restarted. */
  private stopped = false;
  private pending: ScrapeResult[] = [];
  private batchTimer: NodeJS.Timeout | null = null;

  constructor(private readonly send: (message: FromWorker) => void) {}

  configure(settings: EngineSettings): void {
    this.settings = settings;
  }

  /** The targets of the next rounds; what is remembered of targets no longer listed goes. */
  setTargets(targets: WorkerTarget[]): void {
    this.targets = targets;
    const live = new Set(targets.map((t) => t.id));
    for (const id of this.state.keys()) if (!live.has(id) && !this.inFlight.has(id)) this.state.delete(id);
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.roundNow();
    this.timer = setInterval(() => this.roundNow(), this.settings.intervalS * 1000);
  }

  /** One round now, outside the timer's rhythm too (`request`: the main thread waits for its end). */
  roundNow(request?: number): void {
    if (this.stopped) return;
    const done: Promise<void> = this.round(request).finally(() => this.rounds.delete(done));
    this.rounds.add(done);
  }

  /** Requests under way are cut short and report nothing. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.aborter.abort();
    this.slots.cancelWaiting();
    await Promise.all(this.rounds);
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    this.pending = [];
  }

  forget(id: string): void {
    this.state.delete(id);
  }

  resendServices(id: string): void {
    const state = this.state.get(id);
    if (state) state.services = undefined;
  }

  /** One target now (a new or re-pointed server); null when its scrape is already under way or was cut short. */
  async scrapeNow(target: WorkerTarget): Promise<ScrapeResult | null> {
    if (this.inFlight.has(target.id)) return null;
    this.inFlight.add(target.id);
    try {
      return await this.collect(target);
    } finally {
      this.inFlight.delete(target.id);
    }
  }

  /** One round over every target; resolves when all of them answered or timed out. */
  private async round(request?: number): Promise<void> {
    const started = Date.now();
    let skipped = 0;
    const all = Promise.all(
      this.targets.map(async (t) => {
        if ((await this.scrapeWhenFree(t)) === 'skipped') skipped++;
      }),
    );
    // Results are sent as they come; the main thread writes server rows when told the round
    // is over, and once earlier if a slow target still holds the round: the others' rows then
    // wait settleMs, not the whole timeout.
    let settle: NodeJS.Timeout | undefined;
    const early = new Promise<void>((resolve) => (settle = setTimeout(resolve, this.settings.settleMs)));
    if ((await Promise.race([all.then(() => 'done' as const), early])) !== 'done' && !this.stopped) this.sendPending('settle');
    clearTimeout(settle);
    await all;
    if (!this.stopped) this.sendPending('end', { roundS: (Date.now() - started) / 1000, skipped, request });
  }

  private sendPending(phase: 'settle' | 'end' | null, extra: { roundS?: number; skipped?: number; request?: number } = {}): void {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    const results = this.pending;
    this.pending = [];
    if (results.length || phase) this.send({ type: 'results', results, phase, ...extra });
  }

  private queueResult(result: ScrapeResult): void {
    this.pending.push(result);
    if (this.pending.length >= BATCH_MAX) this.sendPending(null);
    else this.batchTimer ??= setTimeout(() => this.sendPending(null), BATCH_MS);
  }


  private async scrapeWhenFree(target: WorkerTarget): Promise<'skipped' | void> {
    if (this.inFlight.has(target.id)) return 'skipped';
    this.inFlight.add(target.id);
    try {
      if (!(await this.slots.acquire())) return;
      try {
        if (this.stopped) return;
        const result = await this.collect(target);
        if (result && !this.stopped) this.queueResult(result);
      } finally {
        this.slots.release();
      }
    } finally {
      this.inFlight.delete(target.id);
    }
  }

  private stateOf(target: WorkerTarget): TargetState | null {
    let state = this.state.get(target.id);
    // A list sent before the target was re-pointed (scrapeNow already brought the new one): skip it.
    if (state && target.gen < state.gen) return null;
    if (!state || state.gen !== target.gen) {
      state = { gen: target.gen, keys: new Map() };
      this.state.set(target.id, state);
    }
    return state;
  }

  /** Scrape one target; null when cut short (stopping) or forgotten meanwhile. */
  private async collect(target: WorkerTarget): Promise<ScrapeResult | null> {
    const at = Date.now();
    const state = this.stateOf(target);
    if (!state) return null;
    const base = { id: target.id, gen: target.gen, at };
    // The server was forgotten (deleted or re-pointed) meanwhile: this answer is about a target it no longer has.
    const stale = () => this.state.get(target.id) !== state;
    let body: Buffer;
    try {
      body = await fetchMetricsBytes(target.ipaddress, target.agentPort, this.settings.timeoutS * 1000, this.aborter.signal);
    } catch (error) {
      if (this.aborter.signal.aborted || stale()) return null;
      return { ...base, kind: 'down', durationS: (Date.now() - at) / 1000, bytes: 0, samples: 0, reason: (error as Error).message, failedFetch: true };
    }
    const durationS = (Date.now() - at) / 1000;
    if (stale()) return null;
    const bytes = body.length;
    try {
      const { samples, derived, overLimit } = parseAndDerive(target.os, body, at, state, { samples: this.settings.seriesLimit ?? 50_000, labelBytes: this.settings.labelLimit ?? 1024 });
      if (overLimit) {
        state.memory = undefined;
        return { ...base, kind: 'limited', durationS, bytes, samples, reason: overLimit };
      }
      if (!derived) {
        // Something answers on the port, but not an exporter (a web page, an empty body).
        return { ...base, kind: 'down', durationS, bytes, samples, reason: 'The answer held no metrics: is an exporter listening on this port?', failedFetch: false };
      }
      return { ...base, kind: 'up', durationS, bytes, samples, ...this.encode(state, derived) };
    } catch (error) {
      return { ...base, kind: 'error', durationS, bytes, samples: 0, message: (error as Error).stack ?? String(error) };
    }
  }

  /** Derived figures → what crosses to the main thread: numbers in typed arrays, keys once. */
  private encode(state: TargetState, derived: Derived): Pick<Extract<ScrapeResult, { kind: 'up' }>, 'usage' | 'services' | 'keyBase' | 'keysAdded' | 'values'> {
    const usage = new Float64Array(usageFields.length);
    usageFields.forEach((field, i) => {
      const v = derived.usage[field];
      usage[i] = typeof v === 'number' && Number.isFinite(v) ? v : NaN;
    });
    const keysAdded: string[] = [];
    const keyBase = state.keys.size;
    const series = derived.series;
    for (const key in series) {
      if (!state.keys.has(key)) {
        state.keys.set(key, state.keys.size);
        keysAdded.push(key);
      }
    }
    const values = new Float64Array(state.keys.size).fill(NaN);
    for (const key in series) values[state.keys.get(key)!] = series[key]!;
    let services: ServiceStateList | null | undefined = null;
    if (derived.servicesExposed) {
      const signature = derived.services.map((s) => `${s.name}\u0000${s.status}`).join('\n');
      services = signature === state.services ? undefined : derived.services;
      state.services = signature;
    }
    return { usage, services, keyBase, keysAdded, values };
  }
}

type ServiceStateList = Derived['services'];
