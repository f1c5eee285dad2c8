import { databaseUnavailable } from '../db/unavailable';

export interface OutageLogger {
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

/** Longest wait between attempts while a dependency stays down. */
const MAX_BACKOFF_MS = 30_000;
/** While an outage lasts, one reminder this often, not one line per attempt. */
const REMINDER_MS = 5 * 60_000;

/**
 * How a background loop reports a dependency that keeps failing (the database, most often):
 * the first failure of an outage is logged, then one reminder every five minutes, then one line
 * when it works again — no log storm of one error a second. `backoffMs` tells the loop how long
 * to wait before its next attempt: doubling from `baseMs` up to 30 s while the outage lasts.
 */
export class OutageNotice {
  private since: number | null = null;
  private failures = 0;
  private remindedAt = 0;

  constructor(
    private readonly log: OutageLogger,
    /** What fails, for the log: "Alert delivery", "The collector's writes". */
    private readonly what: string,
    private readonly baseMs = 1000,
  ) {}

  get failing(): boolean {
    return this.since !== null;
  }

  /** The attempt failed. Returns true when the error was a database outage (the caller should back off). */
  failed(error: unknown, now = Date.now()): boolean {
    const outage = databaseUnavailable(error);
    this.failures++;
    if (this.since === null) {
      this.since = now;
      this.remindedAt = now;
      this.log.error({ err: error }, outage ? `${this.what}: the database is unavailable; retrying with back-off` : `${this.what} failed`);
    } else if (now - this.remindedAt >= REMINDER_MS) {
      this.remindedAt = now;
      this.log.error({ err: error, failures: this.failures, sinceS: Math.round((now - this.since) / 1000) }, `${this.what} still fails`);
    } else if (!outage) {
      // Other errors are each worth a line, but still at most one per back-off step.
      this.log.warn({ err: error }, `${this.what} failed again`);
    }
    return outage;
  }

  /** The attempt worked: ends an outage (one line saying so). */
  ok(now = Date.now()): void {
    if (this.since === null) return;
    this.log.warn({ failures: this.failures, downS: Math.round((now - this.since) / 1000) }, `${this.what} works again`);
    this.since = null;
    this.failures = 0;
  }

  /** The wait before the next attempt: `baseMs` normally, doubling per failure during an outage. */
  backoffMs(): number {
    if (this.since === null) return this.baseMs;
    return Math.min(MAX_BACKOFF_MS, this.baseMs * 2 ** Math.min(this.failures - 1, 16));
  }
}
