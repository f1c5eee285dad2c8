/**
 * Time ranges, refresh intervals and time zones of the server detail's metric tabs (SPEC §2):
 * presets Last 1/3/6/12/24 Hours, a custom start/end pair, UTC or local time, auto-refresh
 * 10s/30s/1m/5m. Pure, so the commands, the screens and the tests share one set of rules.
 */

const HOUR = 3_600_000;

export const rangePresets = [
  { value: '1h', label: 'Last 1 Hour', ms: HOUR },
  { value: '3h', label: 'Last 3 Hours', ms: 3 * HOUR },
  { value: '6h', label: 'Last 6 Hours', ms: 6 * HOUR },
  { value: '12h', label: 'Last 12 Hours', ms: 12 * HOUR },
  { value: '24h', label: 'Last 24 Hours', ms: 24 * HOUR },
] as const;
export type RangePreset = (typeof rangePresets)[number]['value'];
export const rangeValues = ['1h', '3h', '6h', '12h', '24h', 'custom'] as const;
export type RangeValue = (typeof rangeValues)[number];
export const DEFAULT_RANGE: RangePreset = '1h';

export const refreshOptions = [
  { value: '10s', label: '10s', ms: 10_000 },
  { value: '30s', label: '30s', ms: 30_000 },
  { value: '1m', label: '1m', ms: 60_000 },
  { value: '5m', label: '5m', ms: 300_000 },
] as const;
export type RefreshInterval = (typeof refreshOptions)[number]['value'];
export const refreshValues = refreshOptions.map((o) => o.value) as unknown as readonly [RefreshInterval, ...RefreshInterval[]];

export const timeZones = ['utc', 'local'] as const;
export type TimeZoneChoice = (typeof timeZones)[number];
export const DEFAULT_TIME_ZONE: TimeZoneChoice = 'utc';

/** The chart endpoint refuses longer ranges (server/contract/servers.ts chartQuerySchema). */
export const MAX_RANGE_MS = 31 * 24 * HOUR;

/** SPEC §2: server charts refresh every 10s; Windows tabs every 5m. */
export function defaultRefresh(os: 'linux' | 'windows'): RefreshInterval {
  return os === 'windows' ? '5m' : '10s';
}

export function refreshMs(interval: RefreshInterval): number {
  return refreshOptions.find((o) => o.value === interval)!.ms;
}

export function presetLabel(range: RangeValue): string {
  return rangePresets.find((p) => p.value === range)?.label ?? 'Custom range';
}

/**
 * A custom range is a pair: both ends or neither, the end after the start, and no longer than
 * the chart endpoint allows. true, or a sentence a person can read.
 */
export function validateCustomRange(from: number | null | undefined, to: number | null | undefined): true | string {
  const hasFrom = from !== null && from !== undefined;
  const hasTo = to !== null && to !== undefined;
  if (!hasFrom && !hasTo) return 'Choose a start and an end.';
  if (!hasFrom) return 'Choose a start as well as an end.';
  if (!hasTo) return 'Choose an end as well as a start.';
  if (!Number.isFinite(from) || !Number.isFinite(to)) return 'Choose a valid start and end.';
  if (to <= from) return 'The end must be after the start.';
  if (to - from > MAX_RANGE_MS) return 'A range may span at most 31 days.';
  return true;
}

/**
 * The [from, to] window in unix milliseconds for a range at `now`: a preset ends now; a valid
 * custom pair is used as given; anything else (a custom range missing an end) falls back to the
 * default preset, so a hand-edited URL still shows charts.
 */
export function resolveWindow(view: { range: RangeValue; from?: number; to?: number }, now: number): { from: number; to: number } {
  if (view.range === 'custom' && validateCustomRange(view.from, view.to) === true) return { from: view.from!, to: view.to! };
  const preset = rangePresets.find((p) => p.value === view.range) ?? rangePresets[0];
  return { from: now - preset.ms, to: now };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DDTHH:mm`, the value of an `<input type="datetime-local">`, in UTC or local time. */
export function toDateTimeInput(ms: number, tz: TimeZoneChoice): string {
  const d = new Date(ms);
  const [y, mo, day, h, mi] =
    tz === 'utc'
      ? [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes()]
      : [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes()];
  return `${pad(y, 4)}-${pad(mo)}-${pad(day)}T${pad(h)}:${pad(mi)}`;
}

const ZONELESS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A date-time typed by a person or sent by a screen, in unix milliseconds, or null:
 * - a number, or only digits: unix milliseconds (below 10^11: unix seconds);
 * - `YYYY-MM-DD`, `YYYY-MM-DD HH:mm[:ss]` or `…THH:mm[:ss]` without a zone: read in `tz`, the
 *   zone the charts are shown in, so what you type matches the axis you look at;
 * - anything with a zone (`Z`, `+02:00`): as it says.
 */
export function parseDateTime(value: string | number | null | undefined, tz: TimeZoneChoice): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? (value < 1e11 ? value * 1000 : value) : null;
  const text = value.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return parseDateTime(Number(text), tz);
  const m = ZONELESS.exec(text);
  if (m) {
    const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
    const parts = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
    if (parts[1] > 11 || parts[2] < 1 || parts[2] > 31 || parts[3] > 23 || parts[4] > 59 || parts[5] > 59) return null;
    const ms = tz === 'utc' ? Date.UTC(...parts) : new Date(...parts).getTime();
    // Date rolls 2026-02-31 over to March; a person meant something else.
    const back = new Date(ms);
    const day = tz === 'utc' ? back.getUTCDate() : back.getDate();
    return day === parts[2] ? ms : null;
  }
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}
