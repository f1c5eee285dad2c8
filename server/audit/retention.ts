import { lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { commandHistory } from '../db/schema';
import { appendServerRecord, SYSTEM_ACTOR } from './record';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * Removes records older than `retentionDays` (HISTORY_RETENTION_DAYS). The trail is append-only
 * (migration 0018's trigger); this is its one controlled bypass: the transaction sets
 * `opsdeck.history_prune_before` for itself only, and the trigger then lets through deletes of
 * rows older than that moment — never rows of the last day, whatever is set. The prune records
 * itself (how many, up to when) as done by Opsdeck, in the same transaction.
 */
export async function pruneHistory(db: Db, retentionDays: number, now = new Date()): Promise<number> {
  if (!(retentionDays > 0)) return 0;
  const before = new Date(now.getTime() - Math.max(1, retentionDays) * DAY_MS);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('opsdeck.history_prune_before', ${before.toISOString()}, true)`);
    const removed = await tx.delete(commandHistory).where(lt(commandHistory.createdAt, before)).returning({ id: commandHistory.id });
    if (removed.length) {
      await appendServerRecord(tx as unknown as Db, {
        actor: SYSTEM_ACTOR,
        command: 'history.prune',
        commandLine: null,
        source: 'system',
        outcome: 'ok',
        error: null,
        status: null,
        durationMs: 0,
        method: null,
        route: null,
        targets: [],
        requestBody: { removed: removed.length, before: before.toISOString(), retentionDays },
        requestId: null,
        runId: null,
        undoOf: null,
      });
    }
    return removed.length;
  });
}

/** Prunes at start and then hourly; stops with the app. */
export class HistoryRetention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly retentionDays: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    if (!(this.retentionDays > 0) || this.timer) return;
    const tick = () => {
      this.running = pruneHistory(this.db, this.retentionDays)
        .then((n) => {
          if (n) this.log.info({ removed: n, retentionDays: this.retentionDays }, 'pruned the command history');
        })
        .catch((err: unknown) => this.log.error({ err }, 'command history prune failed'))
        .finally(() => {
          this.running = null;
        });
    };
    tick();
    this.timer = setInterval(tick, HOUR_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
