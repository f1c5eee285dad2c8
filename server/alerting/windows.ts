import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import rrulePkg from 'rrule';
import { badRequest } from '../http/errors';

// rrule ships CommonJS with a default export under ESM.
const { rrulestr, RRule } = rrulePkg as unknown as typeof import('rrule');
type RRuleT = InstanceType<typeof RRule>;

/**
 * When a maintenance window is in force (issue 14 §3). A one-off window is its start to its end.
 * A recurring one repeats by an RFC 5545 RRULE (the `rrule` library) whose occurrences start at the
 * start's wall-clock time in the window's time zone ("every Sunday 02:00 Europe/Berlin" stays
 * 02:00 across daylight saving) and last as long as the first one (end − start).
 *
 * rrule computes in "floating" time: a Date whose UTC fields are the wall clock. We hand it the
 * start's wall clock and turn each occurrence's wall clock back into an instant with date-fns-tz,
 * which avoids rrule's own tzid handling (it reads the process's time zone).
 */

export interface WindowTimes {
  startsAt: Date;
  endsAt: Date;
  timezone: string;
  rrule: string | null;
}
export interface Occurrence {
  start: Date;
  end: Date;
}

const DAY = 86_400_000;
/**
 * Rules finer than daily are refused: a window is planned downtime, not a duty cycle, and rrule.js
 * iterates sub-daily rules slowly (an hourly rule took ~6 ms per question).
 */
const FINEST = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'];
/** A single occurrence lasts at most this long. */
export const MAX_OCCURRENCE_MS = 31 * DAY;

const floating = (instant: Date, tz: string) => new Date(`${formatInTimeZone(instant, tz, "yyyy-MM-dd'T'HH:mm:ss.SSS")}Z`);
const instantOf = (wall: Date, tz: string) => fromZonedTime(wall.toISOString().slice(0, 23), tz);

export function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Parses the RRULE text (with or without "RRULE:"); throws a 400 on `rrule` when it is not one. */
function parseRule(text: string, dtstart: Date): RRuleT {
  const body = text.trim().replace(/^RRULE:/i, '');
  if (/(^|;)\s*DTSTART/i.test(body) || /\n/.test(body)) throw badRequest('rrule: give only the RRULE part (FREQ=…); the window’s start is its DTSTART', 'rrule');
  let rule: RRuleT;
  try {
    rule = rrulestr(`RRULE:${body}`, { dtstart, cache: true }) as RRuleT;
  } catch (error) {
    throw badRequest(`rrule: not a recurrence rule (${error instanceof Error ? error.message : String(error)})`, 'rrule');
  }
  const freq = RRule.FREQUENCIES[rule.options.freq];
  if (!freq || !FINEST.includes(freq)) throw badRequest('rrule: a window recurs at most daily (FREQ=DAILY, WEEKLY, MONTHLY or YEARLY)', 'rrule');
  return rule;
}

/**
 * Checks a window's times as the API receives them: a known time zone, an end after the start,
 * an occurrence no longer than 31 days, and a rule that parses and occurs at least once.
 * Throws a 400 naming the field.
 */
export function validateWindowTimes(w: WindowTimes): void {
  if (!validTimezone(w.timezone)) throw badRequest(`timezone: "${w.timezone}" is not a time zone (e.g. UTC, Europe/Berlin)`, 'timezone');
  const length = w.endsAt.getTime() - w.startsAt.getTime();
  if (length <= 0) throw badRequest('endsAt: the end must be after the start', 'endsAt');
  if (length > MAX_OCCURRENCE_MS) throw badRequest('endsAt: one occurrence lasts at most 31 days', 'endsAt');
  if (w.rrule === null) return;
  const rule = parseRule(w.rrule, floating(w.startsAt, w.timezone));
  if (!rule.after(floating(w.startsAt, w.timezone), true)) throw badRequest('rrule: this rule never occurs (check UNTIL, COUNT and the BY… parts)', 'rrule');
}

/** Fixed-length periods (in wall-clock time) by which a rule's start can move without changing its occurrences. */
const PERIOD_MS: Record<string, number> = { DAILY: DAY, WEEKLY: 7 * DAY };

/** One window's schedule, with its rule parsed once. */
export class WindowSchedule {
  private readonly rule: RRuleT | null;
  private readonly length: number;
  private rebased: { k: number; rule: RRuleT } | null = null;

  constructor(private readonly w: WindowTimes) {
    this.length = w.endsAt.getTime() - w.startsAt.getTime();
    this.rule = w.rrule ? parseRule(w.rrule, floating(w.startsAt, w.timezone)) : null;
  }

  /**
   * rrule iterates from DTSTART on every call: a daily window started years ago costs thousands of
   * steps per question. For daily and weekly rules without COUNT, moving DTSTART forward
   * by whole intervals changes no occurrence, so questions about `wall` start near it.
   */
  private ruleNear(wall: Date): RRuleT {
    const rule = this.rule!;
    const o = rule.origOptions;
    const period = PERIOD_MS[RRule.FREQUENCIES[rule.options.freq]!];
    if (!period || o.count || !o.dtstart) return rule;
    const step = period * (o.interval ?? 1);
    const k = Math.floor((wall.getTime() - o.dtstart.getTime()) / step) - 1;
    if (k <= 0) return rule;
    if (this.rebased?.k !== k) this.rebased = { k, rule: new RRule({ ...o, dtstart: new Date(o.dtstart.getTime() + k * step) }) };
    return this.rebased.rule;
  }

  /** Occurrences that overlap [from, to), oldest first (at most `limit`). */
  between(from: Date, to: Date, limit = 1000): Occurrence[] {
    if (!this.rule) return this.w.startsAt < to && this.w.endsAt > from ? [{ start: this.w.startsAt, end: this.w.endsAt }] : [];
    // Wall clocks differ from instants by at most a day; widen, then keep what really overlaps.
    const wallFrom = new Date(floating(from, this.w.timezone).getTime() - this.length - DAY);
    const wallTo = new Date(floating(to, this.w.timezone).getTime() + DAY);
    const out: Occurrence[] = [];
    this.ruleNear(wallFrom).between(wallFrom, wallTo, true, (wall) => {
      const start = instantOf(wall, this.w.timezone);
      const end = new Date(start.getTime() + this.length);
      if (start < to && end > from) out.push({ start, end });
      return out.length < limit;
    });
    return out;
  }

  /** The occurrence in force at `at`, or null. */
  activeAt(at: Date): Occurrence | null {
    return this.between(at, new Date(at.getTime() + 1), 1)[0] ?? null;
  }

  /** The first start or end strictly after `at` (when being in the window may change), or null. */
  nextBoundary(at: Date): Date | null {
    const active = this.activeAt(at);
    if (active) return active.end;
    if (!this.rule) return this.w.startsAt > at ? this.w.startsAt : null;
    let wall = new Date(floating(at, this.w.timezone).getTime() - DAY);
    const rule = this.ruleNear(wall);
    for (let i = 0; i < 50; i++) {
      const next = rule.after(wall, false);
      if (!next) return null;
      const start = instantOf(next, this.w.timezone);
      if (start > at) return start;
      wall = next;
    }
    return null;
  }
}
