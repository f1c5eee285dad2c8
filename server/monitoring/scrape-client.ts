/**
 * Starts and ends the scrape worker thread (scrape-worker.ts) for the collector. One
 * long-lived worker rather than a task pool (piscina and the like): what it keeps between
 * scrapes of a target — counter memory, the families to parse, the series key order — would
 * otherwise cross the thread boundary with every task (docs/decisions.md).
 */
import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './scrape-protocol';

/** The built server runs build/server/scrape-worker.js beside cli.js; a source checkout runs the TypeScript through tsx. */
function workerEntry(): { url: URL; workerData?: unknown } {
  const here = import.meta.url;
  if (/\.[cm]?ts$/.test(new URL(here).pathname)) {
    return { url: new URL('./scrape-worker-tsx.mjs', here), workerData: { entry: new URL('./scrape-worker.ts', here).href } };
  }
  return { url: new URL('./scrape-worker.js', here) };
}

/** How long stop() lets the worker end its requests before terminating it. */
const STOP_GRACE_MS = 1000;

export class ScrapeWorkerClient {
  private readonly worker: Worker;
  private exited = false;
  private stopping: Promise<void> | null = null;
  private stoppedAck: (() => void) | null = null;
  /** Resolves once the worker has loaded (or ended). */
  readonly ready: Promise<void>;

  constructor(
    onMessage: (message: FromWorker) => void,
    /** The worker died on its own (not through stop()): an uncaught error, or out of memory. */
    onCrash: (error: Error) => void,
  ) {
    const { url, workerData } = workerEntry();
    this.worker = new Worker(url, { workerData, name: 'opsdeck-scrape' });
    // Never what keeps the process alive: the collector's own timers and the server do that.
    this.worker.unref();
    let lastError: Error | null = null;
    let loaded = () => {};
    this.ready = new Promise<void>((resolve) => (loaded = resolve));
    this.worker.on('message', (message: FromWorker) => {
      if (message.type === 'stopped') this.stoppedAck?.();
      else if (message.type === 'ready') loaded();
      else onMessage(message);
    });
    this.worker.on('error', (error) => {
      lastError = error;
    });
    this.worker.on('exit', (code) => {
      this.exited = true;
      loaded();
      this.stoppedAck?.();
      if (!this.stopping) onCrash(lastError ?? new Error(`The scrape worker exited with code ${code}`));
    });
  }

  post(message: ToWorker): void {
    if (!this.exited) this.worker.postMessage(message);
  }

  /** Cuts requests short, waits for the worker to say so (at most STOP_GRACE_MS), then ends the thread. */
  close(): Promise<void> {
    this.stopping ??= (async () => {
      if (!this.exited) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, STOP_GRACE_MS);
          this.stoppedAck = () => {
            clearTimeout(timer);
            resolve();
          };
          this.worker.postMessage({ type: 'stop' } satisfies ToWorker);
        });
      }
      await this.worker.terminate();
    })();
    return this.stopping;
  }
}
