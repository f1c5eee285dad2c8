/**
 * Value and time formatting for the built-in charts (stat numbers, gauges, axis ticks, legend),
 * by the chart API's unit: percent, share (0–1 shown as %), bytes, bytes/s (1024-based, SPEC's
 * B/KB/MB… names), bits/s (1000-based), ops/s, packets/s, pages/s, cores (CPU seconds per second: "1.5 cores"), count and seconds. Pure.
 */

import { formatDuration as formatSpan } from '../../server/contract/duration';

export const EMPTY = '--';

export type ChartUnit = 'percent' | 'bytes' | 'bytes/s' | 'bits/s' | 'ops/s' | 'packets/s' | 'pages/s' | 'cores' | 'count' | 'seconds' | 'share';

/**
 * The chart API speaks Grafana's unit names (server/monitoring/panels.ts): 'percentunit' is a
 * 0–1 share and 'short' a plain count. Both spellings are accepted everywhere below.
 */
const ALIASES: Record<string, ChartUnit> = { percentunit: 'share', short: 'count' };
export function normalizeUnit(unit: string): string {
  return ALIASES[unit] ?? unit;
}

interface Scale {
  divisor: number;
  suffix: string;
}

// Suffixes carry their own leading space: "1.5 GB", "12 Mb/s", "1.2k ops/s", "1.2k", "42%".
const BYTE_SUFFIXES = [' B', ' KB', ' MB', ' GB', ' TB', ' PB'];
const BIT_SUFFIXES = [' b/s', ' kb/s', ' Mb/s', ' Gb/s', ' Tb/s', ' Pb/s'];
const SI_PREFIXES = ['', 'k', 'M', 'G', 'T', 'P'];

function stepped(magnitude: number, base: number, suffixes: string[]): Scale {
  let i = 0;
  while (i < suffixes.length - 1 && magnitude >= base ** (i + 1)) i++;
  return { divisor: base ** i, suffix: suffixes[i]! };
}

const TIME_SCALES: Scale[] = [
  { divisor: 1e-6, suffix: ' µs' },
  { divisor: 1e-3, suffix: ' ms' },
  { divisor: 1, suffix: ' s' },
  { divisor: 60, suffix: ' min' },
  { divisor: 3_600, suffix: ' h' },
  { divisor: 86_400, suffix: ' d' },
];

/** The unit scale that suits values up to `magnitude` (an absolute value). */
export function scaleFor(unit: string, magnitude: number): Scale {
  const m = Math.abs(magnitude);
  switch (normalizeUnit(unit)) {
    case 'percent':
      return { divisor: 1, suffix: '%' };
    case 'share':
      return { divisor: 0.01, suffix: '%' };
    case 'bytes':
      return stepped(m, 1024, BYTE_SUFFIXES);
    case 'bytes/s':
      return stepped(m, 1024, BYTE_SUFFIXES.map((s) => `${s}/s`));
    case 'bits/s':
      return stepped(m, 1000, BIT_SUFFIXES);
    case 'ops/s':
      return stepped(m, 1000, SI_PREFIXES.map((p) => `${p} ops/s`));
    case 'packets/s':
      return stepped(m, 1000, SI_PREFIXES.map((p) => `${p} p/s`));
    case 'pages/s':
      return stepped(m, 1000, SI_PREFIXES.map((p) => `${p} pages/s`));
    case 'cores':
      return { divisor: 1, suffix: ' cores' };
    case 'seconds': {
      if (m === 0) return TIME_SCALES[2]!;
      let best = TIME_SCALES[0]!;
      for (const s of TIME_SCALES) if (m >= s.divisor) best = s;
      return best;
    }
    default:
      return stepped(m, 1000, SI_PREFIXES);
  }
}

const join = (num: string, suffix: string) => num + suffix;

/** Up to three significant digits, no trailing zeros: 1.5, 12.3, 123, 0.05. */
function shortNumber(x: number): string {
  if (x === 0) return '0';
  const a = Math.abs(x);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return String(Number(x.toFixed(digits)));
}

/** A compact duration for a single figure: "3d 4h", "4h 5m", "5m 6s", "6.2 s", "120 ms". */
export function formatDuration(seconds: number): string {
  const a = Math.abs(seconds);
  // Below a minute a figure keeps its fraction and its scale (ms, s); above, the two largest units.
  if (a < 60) return join(`${seconds < 0 ? '-' : ''}${shortNumber(a / scaleFor('seconds', a).divisor)}`, scaleFor('seconds', a).suffix);
  return formatSpan(seconds, 2);
}

const missing = (v: number | null | undefined): v is null | undefined => v === null || v === undefined || !Number.isFinite(v);

/** One figure with its unit, for stats, gauges and the legend: "42.5%", "1.5 GB", "12 Mb/s". */
export function formatChartValue(value: number | null | undefined, rawUnit: string): string {
  if (missing(value)) return EMPTY;
  const unit = normalizeUnit(rawUnit);
  if (unit === 'seconds') return formatDuration(value);
  if (unit === 'percent' || unit === 'share') {
    const pct = unit === 'share' ? value * 100 : value;
    return `${Number(pct.toFixed(1))}%`;
  }
  if (unit === 'count' && Number.isInteger(value) && Math.abs(value) < 10_000) return String(value);
  const scale = scaleFor(unit, value);
  return singular(join(shortNumber(value / scale.divisor), scale.suffix));
}

/**
 * Axis tick labels: one scale for every tick (chosen by the largest), and as many decimals as
 * the step between ticks needs, so a byte axis reads "0 B, 512 MB, 1 GB"-style consistently
 * ("0 GB, 0.5 GB, 1 GB").
 */
export function formatAxisTicks(ticks: readonly number[], rawUnit: string): string[] {
  const unit = normalizeUnit(rawUnit);
  const finite = ticks.filter((t) => Number.isFinite(t));
  if (!finite.length) return ticks.map(() => '');
  const magnitude = Math.max(...finite.map(Math.abs));
  const scale = scaleFor(unit, magnitude);
  const scaled = ticks.map((t) => t / scale.divisor);
  const sorted = [...scaled].filter(Number.isFinite).sort((a, b) => a - b);
  let step = Infinity;
  for (let i = 1; i < sorted.length; i++) if (sorted[i]! - sorted[i - 1]! > 0) step = Math.min(step, sorted[i]! - sorted[i - 1]!);
  const decimals = Number.isFinite(step) ? decimalsFor(step) : 0;
  return scaled.map((v) => (Number.isFinite(v) ? singular(join(v.toFixed(decimals), scale.suffix)) : ''));
}

/** "1 core", not "1 cores". */
const singular = (label: string) => (label === '1 cores' ? '1 core' : label);

/** The fewest decimals (at most 3) that write every multiple of `step` exactly: 2.5 → 1, 0.25 → 2, 20 → 0. */
function decimalsFor(step: number): number {
  for (let d = 0; d < 3; d++) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, scaled)) return d;
  }
  return 3;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-11-23 09:20:03 UTC" or the browser's local "2026-11-23 10:20:03", from unix seconds. */
export function formatChartTime(unixSeconds: number, tz: 'utc' | 'local'): string {
  const d = new Date(unixSeconds * 1000);
  const utc = tz === 'utc';
  const date = `${utc ? d.getUTCFullYear() : d.getFullYear()}-${pad((utc ? d.getUTCMonth() : d.getMonth()) + 1)}-${pad(utc ? d.getUTCDate() : d.getDate())}`;
  const time = `${pad(utc ? d.getUTCHours() : d.getHours())}:${pad(utc ? d.getUTCMinutes() : d.getMinutes())}:${pad(utc ? d.getUTCSeconds() : d.getSeconds())}`;
  return `${date} ${time}${utc ? ' UTC' : ''}`;
}

export type GaugeTone = 'ok' | 'warning' | 'error' | 'none';

/** SPEC §2/§9 gauges: error above 80, warning above 60. */
export function gaugeTone(percent: number | null | undefined): GaugeTone {
  if (missing(percent)) return 'none';
  if (percent > 80) return 'error';
  if (percent > 60) return 'warning';
  return 'ok';
}

/** The gauge percentage of a figure in its unit: share 0–1 → 0–100; percent as is. */
export function asPercent(value: number | null | undefined, unit: string): number | null {
  if (missing(value)) return null;
  return normalizeUnit(unit) === 'share' ? value * 100 : value;
}

/** The newest non-missing value of a series (what a stat or gauge shows). */
export function lastValue(values: readonly (number | null)[]): number | null {
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    if (v !== null && v !== undefined && Number.isFinite(v)) return v;
  }
  return null;
}

/** Whether a unit is a share of a whole (percent 0–100 or percentunit 0–1): such gauges get a 0–100 arc. */
export function isPercentUnit(unit: string): boolean {
  const u = normalizeUnit(unit);
  return u === 'percent' || u === 'share';
}

/**
 * Tick steps for a y axis: byte axes step in whole KB/MB/GB (1024-based, as the labels are),
 * so they read "0 GB, 10 GB, 20 GB" rather than "9.3 GB, 18.6 GB"; other units keep uPlot's
 * decimal steps (undefined).
 */
export function axisIncrements(unit: string): number[] | undefined {
  const u = normalizeUnit(unit);
  if (u !== 'bytes' && u !== 'bytes/s') return undefined;
  const out: number[] = [];
  for (let k = 0; k <= 5; k++) for (const m of [1, 2, 5, 10, 20, 50, 100, 200, 500]) out.push(m * 1024 ** k);
  return out;
}
