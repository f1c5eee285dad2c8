import { expect, it } from 'vitest';
import { forecastText, formatTimeLeft } from './forecast-note';

it('says when a disk or memory fills, or that it does not', () => {
  expect([formatTimeLeft(0.2), formatTimeLeft(14.46), formatTimeLeft(80)]).toEqual(['in 12 minutes', 'in 14.5 hours', 'in 3 days']);
  expect(forecastText('Disk', null).text).toBe('Disk forecast: not enough history yet (it needs 2 of the last 6 hours).');
  const base = { slopePerHour: 2, fittedNow: 70, points: 73, computedAt: '2026-01-01T00:00:00Z' };
  const soon = forecastText('Disk', { ...base, hoursLeft: 15, fullAt: '2026-01-01T15:00:00Z' });
  expect(soon.urgent).toBe(true);
  expect(soon.text).toMatch(/^Disk full in 15 hours \(around .+\) at \+2\.00% an hour, by the trend of the last 6 hours\.$/);
  expect(forecastText('Memory', { ...base, slopePerHour: -0.5, hoursLeft: null, fullAt: null })).toEqual({ text: 'Memory forecast: not filling (-0.50% an hour over the last 6 hours).', urgent: false });
  expect(forecastText('Memory', { ...base, hoursLeft: 30, fullAt: '2026-01-02T06:00:00Z' }).urgent).toBe(false);
});
