import { describe, expect, it } from 'vitest';
import { forecastFull, theilSen, type Point } from './forecast';

const NOW = 1_800_000_000;
/** Six hours of five-minute points ending now, from a function of hours ago. */
const series = (f: (hoursAgo: number, i: number) => number): Point[] =>
  Array.from({ length: 73 }, (_, i) => {
    const hoursAgo = 6 - i / 12;
    return { t: NOW - hoursAgo * 3600, v: f(hoursAgo, i) };
  });

describe('disk and memory forecasts (Theil–Sen over 6 hours)', () => {
  it('steady fill: 2 % an hour from 70 % is full in 15 hours', () => {
    const f = forecastFull(
      series((h) => 70 - 2 * h),
      NOW,
    )!;
    expect(f.slopePerHour).toBeCloseTo(2, 6);
    expect(f.fittedNow).toBeCloseTo(70, 6);
    expect(f.hoursLeft).toBeCloseTo(15, 6);
    expect(f.fullAt).toBeCloseTo(NOW + 15 * 3600, 0);
  });

  it('a single spike (and a dropout to 0) does not move the fit, where least squares would', () => {
    const spiky = series((h, i) => (i === 40 ? 99.9 : i === 20 ? 0 : 70 - 2 * h));
    const f = forecastFull(spiky, NOW)!;
    expect(f.hoursLeft).toBeCloseTo(15, 1);
    // Least squares over the same points, for comparison: the spike and dropout pull it away.
    const n = spiky.length;
    const mt = spiky.reduce((a, p) => a + p.t, 0) / n;
    const mv = spiky.reduce((a, p) => a + p.v, 0) / n;
    const ls = (spiky.reduce((a, p) => a + (p.t - mt) * (p.v - mv), 0) / spiky.reduce((a, p) => a + (p.t - mt) ** 2, 0)) * 3600;
    expect(Math.abs(ls - 2)).toBeGreaterThan(0.1);
    expect(Math.abs(f.slopePerHour - 2)).toBeLessThan(0.01);
  });

  it('sawtooth with log rotation: filling 8 % an hour, rotated back every hour, is not "full within a day"', () => {
    // 60 % after each rotation, 68 % just before the next: bounded, however fast each tooth fills.
    const f = forecastFull(
      series((h) => 60 + 8 * (1 - (h % 1))),
      NOW,
    );
    expect(f === null || f.hoursLeft === null || f.hoursLeft > 48).toBe(true);
  });

  it('sawtooth whose floor creeps up (rotation frees less each time) is seen filling', () => {
    const f = forecastFull(
      series((h) => 60 - 3 * h + 8 * (1 - (h % 1))),
      NOW,
    )!;
    expect(f.slopePerHour).toBeGreaterThan(1.5);
    expect(f.hoursLeft).toBeLessThan(24);
  });

  it('flat (with noise) and falling series have no time to full', () => {
    const flat = forecastFull(
      series((_, i) => 55 + ((i * 7919) % 5) / 10),
      NOW,
    )!;
    expect(flat.hoursLeft).toBeNull();
    expect(Math.abs(flat.slopePerHour)).toBeLessThan(0.05);
    expect(forecastFull(series((h) => 50 + h), NOW)!.hoursLeft).toBeNull();
  });

  it('needs enough points over enough time; already full is 0 hours', () => {
    expect(forecastFull(series((h) => 70 - 2 * h).slice(-10), NOW)).toBeNull();
    expect(forecastFull(series((h) => 70 - 2 * h).slice(-20), NOW)).toBeNull(); // 95 minutes
    expect(forecastFull(series((h) => 101 - h), NOW)!.hoursLeft).toBe(0);
    expect(theilSen([{ t: 0, v: 1 }]).slope).toBe(0);
  });
});
