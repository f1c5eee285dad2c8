import { and, eq, or } from 'drizzle-orm';
import type { Outcome } from '../channels/group-targets';
import type { ChannelMessage } from '../channels/types';
import type { Db } from '../db/client';
import { oncallSchedules, settings, users } from '../db/schema';
import { scheduleGaps } from './service';

/** The settings row holding the gaps already told of: schedule id → ranges (ISO), pruned once past. */
export const GAP_NOTICES_KEY = 'oncall_gap_notices';

type Told = Record<string, { start: string; end: string }[]>;
type Notice = NonNullable<ChannelMessage['notice']>;

const overlaps = (a: { start: string; end: string }, b: { start: string; end: string }) => Date.parse(a.start) < Date.parse(b.end) && Date.parse(b.start) < Date.parse(a.end);
const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Issue 27 §7, "nobody on call": once a minute (leader only) looks at every schedule's next 7
 * days and mails the schedule's owners (docs/decisions.md: whoever created it, and every admin;
 * active accounts only) about each gap not told of before. A gap is told of once: one that
 * overlaps a range already told of is the same gap (still open, or grown), so an evaluation that
 * finds nothing new sends nothing. A gap is recorded as told only once the mail was sent, so a
 * mail that failed is tried again at the next evaluation.
 */
export class GapWatch {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: Db,
    private readonly mail: (to: string[], notice: Notice) => Promise<Outcome>,
    private readonly publicUrl: string,
    private readonly log: { warn: (obj: object, msg: string) => void },
    private readonly intervalMs = 60_000,
  ) {}

  async start(): Promise<void> {
    const tick = () => {
      this.evaluate().catch((error: unknown) => this.log.warn({ err: error }, 'on-call gap check failed'));
      this.timer = setTimeout(tick, this.intervalMs);
    };
    tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => 0);
  }

  /** One evaluation at `now` (evaluations take turns); answers how many mails went out. */
  evaluate(now = Date.now()): Promise<number> {
    const run = (this.running ?? Promise.resolve(0)).catch(() => 0).then(() => this.once(now));
    this.running = run;
    return run;
  }

  private async once(now: number): Promise<number> {
    const [row] = await this.db.select({ value: settings.value }).from(settings).where(eq(settings.key, GAP_NOTICES_KEY));
    const told: Told = {};
    // What was told of stays until it is past, so a gap still open is not told of again.
    for (const [id, ranges] of Object.entries((row?.value as Told | undefined) ?? {})) {
      const live = ranges.filter((r) => Date.parse(r.end) > now);
      if (live.length) told[id] = live;
    }
    let sent = 0;
    for (const s of await scheduleGaps(this.db, {}, now)) {
      const known = told[s.schedule._id] ?? [];
      const fresh = s.gaps.filter((g) => !known.some((k) => overlaps(k, g)));
      // A known gap that grew is remembered as it is now.
      const kept = known.map((k) => s.gaps.find((g) => overlaps(k, g)) ?? k);
      told[s.schedule._id] = kept;
      if (!fresh.length) continue;
      const to = await this.owners(s.schedule._id);
      if (!to.length) continue;
      const lines = fresh.map((g) => `- from ${utc(g.start)} to ${utc(g.end)}`);
      const notice: Notice = {
        title: `Nobody on call in ${s.schedule.name}`,
        text: `Nobody is on call in the on-call schedule "${s.schedule.name}" in the next 7 days:\n${lines.join('\n')}\nAn alert that pages this schedule then reaches no one. Add an override or a layer that covers these times: ${this.publicUrl}/oncall/${s.schedule._id}`,
      };
      const outcome = await this.mail(to, notice);
      if (outcome.kind !== 'sent') {
        this.log.warn({ schedule: s.schedule._id, outcome: outcome.kind }, 'on-call gap notice not sent');
        continue;
      }
      told[s.schedule._id] = [...kept, ...fresh];
      sent++;
    }
    await this.db
      .insert(settings)
      .values({ key: GAP_NOTICES_KEY, value: told })
      .onConflictDoUpdate({ target: settings.key, set: { value: told, updatedAt: new Date() } });
    return sent;
  }

  /** A schedule's owners' addresses: its creator and every admin, active accounts only. */
  private async owners(scheduleId: string): Promise<string[]> {
    const [s] = await this.db.select({ createdById: oncallSchedules.createdById }).from(oncallSchedules).where(eq(oncallSchedules.id, scheduleId));
    const rows = await this.db
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.status, 'active'), s?.createdById ? or(eq(users.role, 'admin'), eq(users.id, s.createdById)) : eq(users.role, 'admin')));
    return [...new Set(rows.map((r) => r.email).filter(Boolean))].sort();
  }
}
