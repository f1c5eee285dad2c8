/**
 * Display formatting of server figures (SPEC §2 Servers List), pure so the dashboard and the
 * server detail can share them. Missing figures (null, undefined, NaN) show SPEC's '--'.
 */

export const EMPTY = '--';

const missing = (v: number | null | undefined): v is null | undefined => v === null || v === undefined || !Number.isFinite(v);

/**
 * Bytes in B, KB, MB, GB, TB, PB with one decimal (SPEC §2). Units are 1024-based (KB = 1024 B),
 * as operating systems and exporters' dashboards count memory and traffic; "1023.0 B", "1.0 KB".
 * A value that rounds up to 1024 of a unit moves to the next unit ("1.0 MB", not "1024.0 KB").
 */
const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;
export function formatBytes(bytes: number | null | undefined): string {
  if (missing(bytes) || bytes < 0) return EMPTY;
  let value = bytes;
  let unit = 0;
  while (unit < BYTE_UNITS.length - 1 && Number(value.toFixed(1)) >= 1024) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/** Network usage is a rate (bytes per second over the last scrape interval): "1.5 MB/s". */
export function formatByteRate(bytesPerSecond: number | null | undefined): string {
  const text = formatBytes(bytesPerSecond);
  return text === EMPTY ? EMPTY : `${text}/s`;
}

/** A usage percentage with one decimal: "42.5%". */
export function formatPercent(value: number | null | undefined): string {
  return missing(value) ? EMPTY : `${value.toFixed(1)}%`;
}

/**
 * Uptime as days, hours, minutes and seconds (SPEC §2), from the largest unit that is not zero:
 * "3d 4h 5m 6s", "1h 0m 0s", "59s". Fractions of a second are dropped.
 */
export function formatUptime(seconds: number | null | undefined): string {
  if (missing(seconds) || seconds < 0) return EMPTY;
  let rest = Math.floor(seconds);
  const d = Math.floor(rest / 86_400);
  rest -= d * 86_400;
  const h = Math.floor(rest / 3_600);
  rest -= h * 3_600;
  const m = Math.floor(rest / 60);
  const s = rest - m * 60;
  if (d) return `${d}d ${h}h ${m}m ${s}s`;
  if (h) return `${h}h ${m}m ${s}s`;
  if (m) return `${m}m ${s}s`;
  return `${s}s`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'} ago`;

/**
 * SPEC §2 'Last Updated': 'just now' under 60 s, then minutes, hours, 'yesterday' (24 h to under
 * 48 h), days under 7, weeks under 4, otherwise the date. Elapsed time, not calendar days, so
 * the text does not depend on the viewer's midnight. A time in the future (clock skew) is
 * 'just now'.
 */
export function formatRelativeTime(
  when: string | number | Date | null | undefined,
  now: number | Date = Date.now(),
  options: { locale?: string; timeZone?: string } = {},
): string {
  if (when === null || when === undefined || when === '') return EMPTY;
  const t = when instanceof Date ? when.getTime() : typeof when === 'number' ? when : Date.parse(when);
  if (!Number.isFinite(t)) return EMPTY;
  const seconds = Math.floor(((now instanceof Date ? now.getTime() : now) - t) / 1000);
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return plural(hours, 'hour');
  const days = Math.floor(hours / 24);
  if (days === 1) return 'yesterday';
  if (days < 7) return plural(days, 'day');
  const weeks = Math.floor(days / 7);
  if (weeks < 4) return plural(weeks, 'week');
  return new Intl.DateTimeFormat(options.locale ?? 'en', { year: 'numeric', month: 'short', day: 'numeric', timeZone: options.timeZone }).format(t);
}

export type Tone = 'green' | 'orange' | 'red' | 'none';

/** SPEC §2/§9 card colours for CPU, memory and disk: red above 90, orange above 70, else green. */
export function usageTone(percent: number | null | undefined): Tone {
  if (missing(percent)) return 'none';
  if (percent > 90) return 'red';
  if (percent > 70) return 'orange';
  return 'green';
}

/**
 * SPEC §2 state display: up is green 'Running', down is red 'Down', anything else orange as is;
 * `stale` (no fresh figures, issue 12) is orange 'Stale'; `over_limits` (the exporter answered
 * past SCRAPE_SERIES_LIMIT or SCRAPE_LABEL_LIMIT, issue 25) is orange 'Over limits'.
 */
export function serverStateDisplay(state: string | null | undefined): { label: string; tone: Tone } {
  if (state === 'up') return { label: 'Running', tone: 'green' };
  if (state === 'down') return { label: 'Down', tone: 'red' };
  if (state === 'stale') return { label: 'Stale', tone: 'orange' };
  if (state === 'over_limits') return { label: 'Over limits', tone: 'orange' };
  if (!state) return { label: EMPTY, tone: 'none' };
  return { label: state, tone: 'orange' };
}

/**
 * Long text shortened in its middle ("web-frontend-pro…eu-west-01"), so names of one fleet that
 * differ only at the end stay told apart where CSS would cut the end off.
 */
export function middleEllipsis(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = max - 1;
  const tail = Math.ceil(keep / 2);
  return `${text.slice(0, keep - tail)}…${text.slice(text.length - tail)}`;
}
