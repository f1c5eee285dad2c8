/**
 * Wall-clock arithmetic in one IANA time zone, for on-call schedules.
 *
 * A schedule is defined on its zone's wall clock (handoffs at 09:00, restrictions 09:00–18:00),
 * and that clock is neither continuous nor monotone: when the clocks go forward some wall times
 * never happen, when they go back some happen twice. Every rule of a schedule is decided on the
 * *schedule clock* `scheduleWall(t)`: the latest wall-clock time shown at or before instant t.
 * It is the wall clock itself except during the repeated hour after the clocks go back, where it
 * stays just before the time the clocks went back from, so nothing is decided twice. Its inverse,
 * `instantOf(wall)`, is the first instant the wall clock shows that time or later: a skipped time
 * (02:30 when 02:00 jumps to 03:00) is the moment of the jump, a repeated one is its first
 * occurrence. Both are monotone, so a boundary at wall time W is passed at t exactly when
 * `scheduleWall(t) >= W` — which keeps spans, gaps and point questions consistent.
 *
 * Offsets come from the platform's time-zone data (Intl, ICU's tzdata). No library exposes a
 * zone's transitions cheaply on Node 20 (Temporal is a polyfill there, and slow), so the
 * transitions are found once per year by sampling the offset every 6 hours and bisecting each
 * change to the second; the table answers every later question by binary search.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SAMPLE = 6 * HOUR;

/** Wall-clock times are "floating" milliseconds: Date.UTC of the local fields. */
export type Wall = number;

const zones = new Map<string, Zone>();

/** The zone for an IANA name (cached: tables are shared by every schedule in that zone). */
export function zoneOf(timeZone: string): Zone {
  let zone = zones.get(timeZone);
  if (!zone) {
    zone = new Zone(timeZone);
    zones.set(timeZone, zone);
  }
  return zone;
}

/** True for a name the platform knows as an IANA zone ("Europe/London", "UTC"); offsets such as "+02:00" are refused. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export class Zone {
  private readonly format: Intl.DateTimeFormat;
  /** Segment j runs from starts[j] (inclusive) to starts[j + 1] with offsets[j]; starts[0] is the covered range's start. */
  private starts: number[] = [];
  private offsets: number[] = [];
  /** reach[j]: the furthest wall time (exclusive) any segment up to j shows. */
  private reach: number[] = [];
  private fromYear = 0;
  private toYear = 0;
  /** Instants whose whole year and the years either side are in the table. */
  private safeFrom = Infinity;
  private safeTo = -Infinity;

  constructor(readonly name: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** The zone's offset from UTC at instant t, in milliseconds (straight from Intl, uncached). */
  private rawOffset(t: number): number {
    const second = Math.floor(t / 1000) * 1000;
    const p: Record<string, number> = {};
    for (const part of this.format.formatToParts(second)) if (part.type !== 'literal') p[part.type] = Number(part.value);
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - second;
  }

  /** Makes the table cover the years around instant (or wall time) t, sampling only years not yet covered. */
  private cover(t: number): void {
    if (t >= this.safeFrom && t < this.safeTo) return;
    const year = new Date(t).getUTCFullYear();
    if (!this.starts.length) {
      const first = this.sample(year - 1, year + 2);
      this.starts = first.starts;
      this.offsets = first.offsets;
      this.fromYear = year - 1;
      this.toYear = year + 2;
    } else if (year - 1 < this.fromYear) {
      // The sampled part ends on the offset the table starts with: its first segment continues.
      const left = this.sample(year - 1, this.fromYear);
      this.starts = [...left.starts, ...this.starts.slice(1)];
      this.offsets = [...left.offsets, ...this.offsets.slice(1)];
      this.fromYear = year - 1;
    } else {
      const right = this.sample(this.toYear, year + 2);
      this.starts = [...this.starts, ...right.starts.slice(1)];
      this.offsets = [...this.offsets, ...right.offsets.slice(1)];
      this.toYear = year + 2;
    }
    this.reach = [];
    let furthest = -Infinity;
    for (let j = 0; j < this.starts.length; j++) {
      const end = j + 1 < this.starts.length ? this.starts[j + 1]! + this.offsets[j]! : Infinity;
      furthest = Math.max(furthest, end);
      this.reach.push(furthest);
    }
    this.safeFrom = Date.UTC(this.fromYear + 1, 0, 1);
    this.safeTo = Date.UTC(this.toYear - 1, 0, 1);
    if (t < this.safeFrom || t >= this.safeTo) this.cover(t);
  }

  /** The offsets from the start of fromYear to the start of toYear: its first segment starts there, then one per change. */
  private sample(fromYear: number, toYear: number): { starts: number[]; offsets: number[] } {
    const lo = Date.UTC(fromYear, 0, 1);
    const hi = Date.UTC(toYear, 0, 1);
    const starts = [lo];
    const offsets = [this.rawOffset(lo)];
    for (let a = lo; a < hi; a += SAMPLE) {
      const b = Math.min(hi, a + SAMPLE);
      const before = offsets[offsets.length - 1]!;
      const after = this.rawOffset(b);
      if (after === before) continue;
      // The change lies in (a, b]: bisect to the first second with the new offset.
      let l = a;
      let r = b;
      while (r - l > 1000) {
        const m = Math.floor((l + r) / 2000) * 1000;
        if (this.rawOffset(m) === before) l = m;
        else r = m;
      }
      starts.push(r);
      offsets.push(after);
    }
    return { starts, offsets };
  }

  /** The segment holding instant t. */
  private segment(t: number): number {
    let l = 0;
    let r = this.starts.length - 1;
    while (l < r) {
      const m = (l + r + 1) >> 1;
      if (this.starts[m]! <= t) l = m;
      else r = m - 1;
    }
    return l;
  }

  offsetAt(t: number): number {
    this.cover(t);
    return this.offsets[this.segment(t)]!;
  }

  /** The wall clock at instant t. */
  wallAt(t: number): Wall {
    return t + this.offsetAt(t);
  }

  /** The schedule clock at t: the latest wall time shown at or before t (see the file's comment). */
  scheduleWall(t: number): Wall {
    this.cover(t);
    const j = this.segment(t);
    const wall = t + this.offsets[j]!;
    return j > 0 ? Math.max(wall, this.reach[j - 1]! - 1) : wall;
  }

  /** The first instant whose wall clock shows `wall` or later. */
  instantOf(wall: Wall): number {
    this.cover(wall - DAY);
    this.cover(wall + DAY);
    let l = 0;
    let r = this.starts.length - 1;
    while (l < r) {
      const m = (l + r) >> 1;
      if (this.reach[m]! > wall) r = m;
      else l = m + 1;
    }
    return Math.max(this.starts[l]!, wall - this.offsets[l]!);
  }
}

/** Wall-clock helpers on floating milliseconds. */
export const MINUTE = 60_000;
export const WEEK = 7 * DAY;
export { DAY, HOUR };
/** 1970-01-05 was a Monday: weeks of the wall clock start on Monday 00:00. */
export const MONDAY = Date.UTC(1970, 0, 5);
export const weekStart = (wall: Wall): Wall => wall - mod(wall - MONDAY, WEEK);
export const mod = (a: number, n: number) => ((a % n) + n) % n;
