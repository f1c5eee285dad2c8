import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { AlertRetentionSettings } from '../config';
import type { Database } from '../db/client';

const DAY_MS = 86_400_000;

/** The moment before which resolved alerts are deleted, or null when everything is kept. */
export function alertRetentionCutoff(days: number, now = new Date()): Date | null {
  return days > 0 ? new Date(now.getTime() - days * DAY_MS) : null;
}

export interface PruneOutcome {
  /** Alerts deleted (their events, outbox rows and deliveries went with them). */
  removed: number;
  batches: number;
  /** The longest single batch (ms): what one statement held the database and, on PGlite, the thread. */
  slowestBatchMs: number;
  /** PGlite: how long the pass's VACUUM of the alert tables took (ms); absent on PostgreSQL. */
  vacuumMs?: number;
}

/** The tables a pass deletes from (by cascade) and the evaluator updates: vacuumed after each pass on PGlite. */
const ALERT_TABLES = 'alerts, alert_events, alert_outbox, alert_deliveries';

/**
 * Deletes resolved alerts resolved before the cutoff, `batchSize` at a time (docs/alerting.md
 * "Retention"). Each batch is one statement in its own transaction: the alerts' timeline events,
 * outbox rows and delivery log rows go by their foreign keys' cascades, and the statement
 * triggers of migrations 0008/0009 subtract exactly the deleted rows from alert_counts in the same
 * transaction, so the list's counts never drift. Open alerts (firing, snoozed) are never deleted,
 * however old: their timeline is what someone is looking at. Between batches it pauses so
 * scrapes, evaluation ticks and requests get their turn; `shouldStop` ends it between batches.
 */
export async function pruneAlerts(
  database: Pick<Database, 'query'>,
  settings: Pick<AlertRetentionSettings, 'days' | 'batchSize' | 'pauseMs'>,
  options: { now?: Date; shouldStop?: () => boolean } = {},
): Promise<PruneOutcome> {
  const outcome: PruneOutcome = { removed: 0, batches: 0, slowestBatchMs: 0 };
  const cutoff = alertRetentionCutoff(settings.days, options.now);
  if (!cutoff) return outcome;
  const batchSize = Math.max(1, Math.floor(settings.batchSize));
  for (;;) {
    if (options.shouldStop?.()) break;
    const started = performance.now();
    // The oldest first along alerts_resolved_at_idx; a batch never scans the alerts.
    const rows = await database.query<{ n: number | string }>(
      `with gone as (
         delete from alerts where id in (
           select id from alerts where resolved_at < $1 and status = 'resolved' order by resolved_at limit $2
         ) returning 1
       ) select count(*)::int as n from gone`,
      [cutoff.toISOString(), batchSize],
    );
    const n = Number(rows[0]?.n ?? 0);
    outcome.slowestBatchMs = Math.max(outcome.slowestBatchMs, performance.now() - started);
    if (n === 0) break;
    outcome.removed += n;
    outcome.batches += 1;
    if (n < batchSize) break;
    if (settings.pauseMs > 0) await sleep(settings.pauseMs);
  }
  return outcome;
}

/**
 * The leader's alert retention task (server/ops/leader.ts): a pass shortly after it starts
 * leading and then every `everyMinutes`. stop() ends a pass between two batches.
 *
 * On PGlite, which runs no autovacuum, each pass ends with a VACUUM of the alert tables (also
 * when nothing was old enough, or ALERT_RETENTION_DAYS is 0): without it the space of deleted
 * alerts, and of every alert's earlier versions (a status change writes a new one), would never
 * be reused, dead index entries would pile up for good, and a deep page of the list could not be
 * read from the index alone (the visibility map is set by VACUUM). Measured at 1,000,000 alerts:
 * ~0.1 s after 200 changed alerts, 2.6 s after 4,000 (docs/benchmarks.md "npm run bench -- lists").
 */
export class AlertRetention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<PruneOutcome> | null = null;
  private stopped = true;
  /** Set by stop(): the pass under way ends after its current batch. */
  private abort = false;

  constructor(
    private readonly database: Pick<Database, 'query' | 'kind'>,
    readonly settings: AlertRetentionSettings,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if ((!(this.settings.days > 0) && this.database.kind !== 'pglite') || this.timer) return;
    this.stopped = false;
    // Not at once: a start (or a takeover) has enough to do; then regularly.
    this.schedule(Math.min(60_000, this.settings.everyMinutes * 60_000));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** One pass now (also what tests call); resolves with what it deleted. */
  async runOnce(now?: Date): Promise<PruneOutcome> {
    if (this.running) return this.running;
    this.abort = false;
    this.running = pruneAlerts(this.database, this.settings, { now, shouldStop: () => this.abort });
    try {
      const outcome = await this.running;
      if (outcome.removed) {
        this.log.info({ removed: outcome.removed, batches: outcome.batches, slowestBatchMs: Math.round(outcome.slowestBatchMs), retentionDays: this.settings.days }, 'deleted old resolved alerts');
      }
      if (this.database.kind === 'pglite' && !this.abort) {
        const started = performance.now();
        await this.database.query(`vacuum ${ALERT_TABLES}`);
        outcome.vacuumMs = performance.now() - started;
        if (outcome.vacuumMs > 1000) this.log.info({ vacuumMs: Math.round(outcome.vacuumMs) }, 'vacuumed the alert tables');
      }
      return outcome;
    } finally {
      this.running = null;
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runOnce()
        .catch((err: unknown) => this.log.error({ err }, 'alert retention pass failed'))
        .finally(() => {
          if (!this.stopped) this.schedule(this.settings.everyMinutes * 60_000);
        });
    }, delayMs);
    this.timer.unref();
  }
}
