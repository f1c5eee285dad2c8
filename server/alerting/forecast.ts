/**
 * "Disk full within N hours" / "memory exhausted within N hours" (issue 16): a straight line fitted
 * to the last 6 hours of a percentage, extrapolated to 100 %. The fit is Theil–Sen (the median of
 * the slopes between every pair of points, the intercept the median of the residuals), so a
 * single spike, or a few, moves it nowhere: least squares (Prometheus's predict_linear) would
 * follow them. 72 five-minute points make 2,556 pairs, a fraction of a millisecond.
 */
export interface Point {
  /** Unix seconds. */
  t: number;
  /** Percent used, 0–100. */
  v: number;
}

export interface Forecast {
  /** Percent per hour the fit rises (negative: falls). */
  slopePerHour: number;
  /** The fitted value now (percent). */
  fittedNow: number;
  /** Hours until the fit reaches 100 %, or null when it does not rise (or is already there). */
  hoursLeft: number | null;
  /** When that is (unix seconds), or null. */
  fullAt: number | null;
  points: number;
}

/** At least this many points over at least this much time, or there is no forecast. */
export const MIN_POINTS = 12;
export const MIN_SPAN_S = 2 * 3600;
/** Slower than this is "not filling" (0.01 % an hour is 10,000 hours to fill the whole disk). */
const FLAT_PER_HOUR = 0.01;

function median(values: number[]): number {
  const s = values.slice().sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Theil–Sen slope and intercept (v = slope * (t - t0) + intercept, t0 the first time). */
export function theilSen(points: readonly Point[]): { slope: number; intercept: number; t0: number } {
  const t0 = points[0]?.t ?? 0;
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const dt = points[j]!.t - points[i]!.t;
      if (dt > 0) slopes.push((points[j]!.v - points[i]!.v) / dt);
    }
  }
  const slope = slopes.length ? median(slopes) : 0;
  const intercept = median(points.map((p) => p.v - slope * (p.t - t0)));
  return { slope, intercept, t0 };
}

/** The forecast for a series (sorted or not), at `nowS`; null when there is too little to fit. */
export function forecastFull(input: readonly Point[], nowS: number, limit = 100): Forecast | null {
  const points = input.filter((p) => Number.isFinite(p.v) && Number.isFinite(p.t)).sort((a, b) => a.t - b.t);
  if (points.length < MIN_POINTS || points.at(-1)!.t - points[0]!.t < MIN_SPAN_S) return null;
  const { slope, intercept, t0 } = theilSen(points);
  const slopePerHour = slope * 3600;
  const fittedNow = intercept + slope * (nowS - t0);
  return forecastFromLine(slopePerHour, fittedNow, nowS, points.length, limit);
}

/** A fitted line (from Theil–Sen here, or Prometheus's predict_linear and deriv) as a forecast. */
export function forecastFromLine(slopePerHour: number, fittedNow: number, nowS: number, points: number, limit = 100): Forecast {
  if (slopePerHour <= FLAT_PER_HOUR) return { slopePerHour, fittedNow, hoursLeft: null, fullAt: null, points };
  const hoursLeft = Math.max(0, (limit - fittedNow) / slopePerHour);
  return { slopePerHour, fittedNow, hoursLeft, fullAt: nowS + hoursLeft * 3600, points };
}
