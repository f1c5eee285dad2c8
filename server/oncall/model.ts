/**
 * The on-call schedule model (docs/oncall.md): what a schedule is made of, as stored and as the
 * API will carry it. Instants are ISO 8601 strings with an offset or Z; dates and times of day
 * are wall-clock values in the schedule's time zone.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * When a layer's people are on call within their shift. `daily`: from `from` to `to` on each of
 * `days` (every day when absent); a `to` at or before `from` ends on the next day, so 22:00–06:00
 * is a night and 00:00–00:00 a whole day. `weekly`: one time-of-week range, e.g. Friday 18:00 to
 * Monday 09:00; a range whose end is at or before its start wraps over the week's end.
 */
export type Restriction =
  | { type: 'daily'; days?: Weekday[]; from: string; to: string }
  | { type: 'weekly'; from: { day: Weekday; time: string }; to: { day: Weekday; time: string } };

export type ShiftUnit = 'hours' | 'days' | 'weeks';

export interface Layer {
  id: string;
  name?: string;
  /** People in rotation order; the first takes the shift that starts on `start` at `handoff`. */
  participants: string[];
  /** Shift length, measured on the wall clock (a day is midnight to midnight, 23 or 25 hours across a change). */
  shift: { length: number; unit: ShiftUnit };
  /** The date (YYYY-MM-DD) of the rotation's first shift. A weekly rotation hands off on this weekday. */
  start: string;
  /** The wall-clock time (HH:MM) at which shifts change hands. */
  handoff: string;
  /** When the layer takes effect (an instant; default: its first shift). The rotation keeps counting from `start`. */
  from?: string;
  /** When the layer stops (an instant, exclusive). */
  until?: string;
  restrictions?: Restriction[];
}

/** Someone covers a range, whatever the layers say. */
export interface Override {
  id: string;
  person: string;
  start: string;
  end: string;
}

/** A shift of a layer, named by the instant it starts. */
export interface ShiftRef {
  layer: string;
  start: string;
}

/** Two shifts exchange their people; the shifts keep their times, layers and restrictions. */
export interface Swap {
  id: string;
  first: ShiftRef;
  second: ShiftRef;
}

export interface Schedule {
  timeZone: string;
  /** Later layers win over earlier ones wherever they have someone on call. */
  layers: Layer[];
  overrides?: Override[];
  swaps?: Swap[];
}

/** Which part of the schedule put someone on call. */
export type Source =
  | { type: 'layer'; layer: string; shift: number; swap?: string }
  | { type: 'override'; override: string };

/** A stretch of the final schedule: `person` is on call from `start` to `end` (epoch ms, end exclusive). */
export interface Span {
  start: number;
  end: number;
  person: string;
  source: Source;
}

export interface Range {
  start: number;
  end: number;
}

export interface FieldError {
  /** The field's path, e.g. `layers.1.participants`. */
  field: string;
  message: string;
}

/** "09:30" → minutes after midnight, or null. */
export function parseTimeOfDay(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** "2026-12-07" → the floating ms of its midnight, or null when it is not a calendar date. */
export function parseDate(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const wall = Date.UTC(y, mo - 1, d);
  const back = new Date(wall);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? wall : null;
}

/** An ISO 8601 instant with a date, a time and an offset (or Z) → epoch ms, or null. */
export function parseInstant(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}

export const sourceKey = (s: Source): string => (s.type === 'override' ? `override:${s.override}` : `layer:${s.layer}:${s.shift}`);
