/**
 * What crosses the thread boundary between the collector (main thread: the database, the
 * schedule of writes, the evaluator's wake-up) and the scrape worker (scrape-engine.ts: the
 * round timer, HTTP, parsing, derivation, counter memory). Kept small on purpose: per scrape the
 * worker sends 13 usage figures, the chart values as one Float64Array in an order it fixes per
 * target (new series keys are sent once, when they first appear), and services only when they
 * changed. Raw exporter text and parsed samples never leave the worker.
 */
import type { Os, ServiceState } from './types';

export interface WorkerTarget {
  id: string;
  ipaddress: string;
  agentPort: number;
  os: Os;
  /** Bumped by the main thread when the server is forgotten (deleted or re-pointed): older results are dropped. */
  gen: number;
}

export interface EngineSettings {
  intervalS: number;
  timeoutS: number;
  concurrency: number;
  /** How long a round's results wait for its slowest targets before being sent anyway. */
  settleMs: number;
  /** Samples a scrape may expose (SCRAPE_SERIES_LIMIT; default 50,000). */
  seriesLimit?: number;
  /** Bytes a label name or value may have (SCRAPE_LABEL_LIMIT; default 1,024). */
  labelLimit?: number;
}

export type ScrapeResult =
  | {
      kind: 'up';
      id: string;
      gen: number;
      /** When the scrape started (ms): the reading's time. */
      at: number;
      durationS: number;
      bytes: number;
      samples: number;
      /** usageFields order (types.ts); NaN: unknown. */
      usage: Float64Array;
      /** null: the exporter has no service collector (leave services as they are); undefined: unchanged since the last result sent. */
      services?: ServiceState[] | null;
      /** How many series keys this target had before this result: its key list is cut to that length, then keysAdded appended (0: numbered afresh). */
      keyBase: number;
      /** Series keys new since the last result for this target. */
      keysAdded: string[];
      /** One value per key of the target's key list so far; NaN: no value this scrape. */
      values: Float64Array;
    }
  | { kind: 'down'; id: string; gen: number; at: number; durationS: number; bytes: number; samples: number; reason: string; failedFetch: boolean }
  /** The exporter answered past the limits (too many samples, a label too long): nothing of it is used, the server is `over_limits`. */
  | { kind: 'limited'; id: string; gen: number; at: number; durationS: number; bytes: number; samples: number; reason: string }
  /** The answer could not be used (a bug or an exporter we cannot read): logged, the row is left alone. */
  | { kind: 'error'; id: string; gen: number; at: number; durationS: number; bytes: number; samples: number; message: string };

export type ToWorker =
  | { type: 'settings'; settings: EngineSettings }
  | { type: 'targets'; targets: WorkerTarget[] }
  /** Start the rounds (the first one at once). */
  | { type: 'start' }
  /** One round now, outside the timer (benchmarks); its 'end' carries `request`. */
  | { type: 'round'; request: number }
  | { type: 'scrapeNow'; request: number; target: WorkerTarget }
  | { type: 'forget'; id: string }
  /** The main thread could not write this target's services: send them again next time. */
  | { type: 'resendServices'; id: string }
  | { type: 'stop' };

export type FromWorker =
  | {
      type: 'results';
      results: ScrapeResult[];
      /** 'settle': the round's slow targets are still out, write what came; 'end': the round is over. */
      phase: 'settle' | 'end' | null;
      /** With 'end': how long the round took and how many targets it skipped (still being scraped from before). */
      roundS?: number;
      skipped?: number;
      /** The 'round' request this round answers, if any. */
      request?: number;
    }
  | { type: 'now'; request: number; result: ScrapeResult | null }
  /** The worker has loaded and listens (sent once, first). */
  | { type: 'ready' }
  | { type: 'stopped' }
  | { type: 'log'; level: 'warn' | 'error'; msg: string; err?: string; server?: string };
