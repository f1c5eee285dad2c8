/**
 * Display rules of the dashboard (SPEC §2 Dashboard), pure so they are unit-tested one by one.
 * Missing figures show SPEC's '--'.
 */
import { EMPTY } from './format';

const missing = (v: number | null | undefined): v is null | undefined => v === null || v === undefined || !Number.isFinite(v);

const UNITS = [
  { above: 1e9, suffix: 'b' },
  { above: 1e6, suffix: 'm' },
  { above: 1e3, suffix: 'k' },
] as const;

/**
 * Alert counts: above 1e3 as k, above 1e6 as m, above 1e9 as b, one decimal ("1.5k", "2.0m").
 * "Above" is strict: 1000 stays "1000". A value that would round to 1000 of a unit moves up
 * ("999,999" is "1.0m", not "1000.0k").
 */
export function abbreviateCount(n: number | null | undefined): string {
  if (missing(n)) return EMPTY;
  const sign = n < 0 ? '-' : '';
  const a = Math.abs(n);
  for (let i = 0; i < UNITS.length; i++) {
    const unit = UNITS[i]!;
    if (a > unit.above) {
      const shown = Number((a / unit.above).toFixed(1));
      if (shown >= 1000 && i > 0) {
        const up = UNITS[i - 1]!;
        return `${sign}${(a / up.above).toFixed(1)}${up.suffix}`;
      }
      return `${sign}${(a / unit.above).toFixed(1)}${unit.suffix}`;
    }
  }
  return `${sign}${Math.round(a)}`;
}

/** Share of a ring, 0–1; nothing to share (total 0 or missing) is 0. */
export function ringShare(part: number | null | undefined, total: number | null | undefined): number {
  if (missing(part) || missing(total) || total <= 0) return 0;
  return Math.min(1, Math.max(0, part / total));
}

/** Instance ring label: "running/total", or '--' when either is missing (SPEC §2). */
export function instanceRingText(running: number | null | undefined, total: number | null | undefined): string {
  return missing(running) || missing(total) ? EMPTY : `${running}/${total}`;
}

/** Memory (and CPU) usage: a percentage rounded to a whole number, "92%". */
export function formatRoundedPercent(value: number | null | undefined): string {
  return missing(value) ? EMPTY : `${Math.round(value)}%`;
}

/**
 * SPEC §2 disk rule: the value for Windows hosts, 100 minus the value for others, rounded to a
 * whole number. The API's Linux value is percent available, so either way this is percent used.
 */
export function formatDiskUsage(value: number | null | undefined, os: string): string {
  if (missing(value)) return EMPTY;
  return `${Math.round(os === 'windows' ? value : 100 - value)}%`;
}

/**
 * 'Showing x-y of n items' of a pager; an empty list shows 'Showing 0-0 of 0 items'. An estimated
 * total (a list with more matches than it counts exactly, docs/decisions.md "Counts") reads
 * 'Showing 1-25 of about 58,000 items'.
 */
export function showingItems(page: number, pageSize: number, total: number, estimated = false): string {
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  if (estimated) return `Showing ${from}-${to} of about ${total.toLocaleString('en-US')} items`;
  return `Showing ${from}-${to} of ${total} items`;
}

/** SPEC §2: the pager of dashboard tables is hidden when everything fits on one page. */
export function pagerVisible(total: number, pageSize: number): boolean {
  return total > pageSize;
}

/** Downtime in the largest units that matter: "45s", "5m 3s", "2h 0m", "3d 4h". */
export function formatDowntime(seconds: number | null | undefined): string {
  if (missing(seconds) || seconds < 0) return EMPTY;
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3_600);
  const m = Math.floor((s % 3_600) / 60);
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${m}m`;
  if (m) return `${m}m ${s % 60}s`;
  return `${s}s`;
}
