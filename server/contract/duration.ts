/**
 * Durations as people type and read them ("30m", "1h30m", "2d 3h"), one definition for the
 * commands, the screens, the alert router's notification texts and the incident report. In the
 * contract because every side imports it and it imports nothing (STYLE.md: the contract imports
 * nothing from the server runtime).
 */

const UNITS = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
] as const;
const SECONDS: Record<string, number> = Object.fromEntries(UNITS);

/**
 * "30m", "2h", "1h30m", "1d", "90s" (spaces allowed: "1h 30m") or a bare number of minutes, to
 * seconds; undefined for text that is not a duration.
 */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  if (/^\d+$/.test(t)) return Number(t) * 60;
  if (!/^(\d+[smhd])+$/.test(t)) return undefined;
  let total = 0;
  for (const [, n, u] of t.matchAll(/(\d+)([smhd])/g)) total += Number(n) * SECONDS[u!]!;
  return total;
}

/**
 * Seconds (rounded to whole seconds) as "1d 2h 3m 4s", largest unit first, zero units left out
 * ("1h 5s"), "0s" for nothing. `units` keeps only that many units from the largest one present,
 * as a figure is read: with 2, `3,725` is "1h 2m" and `3,605` is "1h" (its minutes are 0).
 * What `formatDuration` prints, `parseDuration` reads back (without the spaces when exact).
 */
export function formatDuration(seconds: number, units = Infinity): string {
  let rest = Math.round(Math.abs(seconds));
  const sign = seconds < 0 && rest > 0 ? '-' : '';
  const parts: string[] = [];
  let taken = 0;
  for (const [unit, size] of UNITS) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (!taken && !n) continue;
    if (taken++ >= units) break;
    if (n) parts.push(`${n}${unit}`);
  }
  return parts.length ? sign + parts.join(' ') : '0s';
}
