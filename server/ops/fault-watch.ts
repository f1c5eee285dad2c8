import { openStorageAlert, resolveStorageAlert } from '../alerting/meta-alert';
import type { Database } from '../db/client';
import type { LeaderLogger, WorkGate } from './leader';
import { faultsOf } from './faults';

/**
 * The leader's watch over the database's own faults (issue 25 §7): every `intervalMs` it probes
 * (faults.ts) and opens the meta alert "Opsdeck cannot store changes" while a full disk, a
 * read-only database or an exhausted pool is known, resolving it when none is. Writing the alert
 * is itself a write: on a full disk a small row usually still fits (PostgreSQL fails only what
 * needs a new page, and the data folder's reserve is given back first: faults.ts RESERVE_BYTES),
 * but a read-only database takes none: no alert can be stored while it lasts, and readiness,
 * every 503, the log and /metrics (opsdeck_storage_fault) carry the reason instead.
 */
export class FaultWatch {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private open = false;
  private failing = false;
  /** Called after the meta alert queued notifications (app.ts wakes the delivery worker). */
  onQueued: (() => void) | null = null;

  constructor(
    private readonly database: Database,
    private readonly gate: WorkGate,
    private readonly log: LeaderLogger,
    readonly intervalMs = 5000,
  ) {}

  start(): void {
    if (this.timer) return;
    if (this.database.dataDir) void faultsOf(this.database).keepReserve(this.database.dataDir);
    const loop = () => {
      this.timer = setTimeout(() => {
        this.running = this.check().finally(() => {
          this.running = null;
          if (this.timer) loop();
        });
      }, this.intervalMs);
      this.timer.unref?.();
    };
    loop();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One look (the loop's step; tests call it directly). */
  async check(): Promise<void> {
    const faults = faultsOf(this.database);
    await faults.probe(this.database);
    const current = faults.current();
    if (!current.length && !this.open) return;
    // A full disk: give the reserve back first, so the alert saying so fits.
    if (this.database.dataDir && !this.open && current.some((f) => f.reason === 'disk_full')) await faults.releaseReserve(this.database.dataDir);
    const at = new Date();
    const where = this.database.kind === 'postgres' ? 'PostgreSQL' : `embedded database${this.database.dataDir ? ` in ${this.database.dataDir}` : ''}`;
    try {
      const outcome = await this.gate.transaction(async (tx) =>
        current.length ? (await openStorageAlert(tx, at, current, where)).queued : (await resolveStorageAlert(tx, at)).queued,
      );
      if (!outcome.ran) return;
      if (current.length && !this.open) this.log.error({ faults: current.map((f) => f.reason) }, 'Opsdeck cannot store changes');
      else if (!current.length) this.log.warn({}, 'Opsdeck stores changes again');
      this.open = current.length > 0;
      this.failing = false;
      if (outcome.value) this.onQueued?.();
    } catch (error) {
      // Most likely the very fault: tried again at the next look.
      faults.record(error, this.database.poolCounts?.());
      if (!this.failing) this.log.error({ err: error }, 'Could not write the meta alert "Opsdeck cannot store changes"; trying again');
      this.failing = true;
      this.open = this.open || current.length > 0;
    }
  }
}
