import { describe, expect, it } from 'vitest';
import { fixedReportWindow, parseReportTime, presetWindow, reportCall, reportFileName, resolveReportWindow } from './report-window';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const H = 3_600_000;

describe('incident report times', () => {
  it('reads now and times relative to now', () => {
    expect(parseReportTime('now', NOW)).toBe(NOW);
    expect(parseReportTime(' NOW ', NOW)).toBe(NOW);
    expect(parseReportTime('-6h', NOW)).toBe(NOW - 6 * H);
    expect(parseReportTime('now-6h', NOW)).toBe(NOW - 6 * H);
    expect(parseReportTime('-30m', NOW)).toBe(NOW - 30 * 60_000);
    expect(parseReportTime('-90s', NOW)).toBe(NOW - 90_000);
    expect(parseReportTime('-2d', NOW)).toBe(NOW - 48 * H);
    expect(parseReportTime('-1w', NOW)).toBe(NOW - 7 * 24 * H);
    expect(parseReportTime('-1.5h', NOW)).toBe(NOW - 1.5 * H);
  });

  it('reads ISO times, without a zone as UTC, and unix times', () => {
    expect(parseReportTime('2026-11-23T09:00:00Z', NOW)).toBe(Date.UTC(2026, 10, 23, 9));
    expect(parseReportTime('2026-11-23T10:00:00+01:00', NOW)).toBe(Date.UTC(2026, 10, 23, 9));
    expect(parseReportTime('2026-11-23T09:00', NOW)).toBe(Date.UTC(2026, 10, 23, 9));
    expect(parseReportTime('2026-11-23 09:30:15', NOW)).toBe(Date.UTC(2026, 10, 23, 9, 30, 15));
    expect(parseReportTime(String(NOW), NOW)).toBe(NOW);
    expect(parseReportTime('1795435200', NOW)).toBe(1_795_435_200_000);
  });

  it('refuses what it cannot read', () => {
    for (const bad of ['', 'yesterday', '6h', '-6', '-6y', '+6h', '2026-02-31T09:00', '2026-11-23T25:00', 'now+1h']) expect(parseReportTime(bad, NOW), bad).toBeNull();
  });

  it('resolves a window, last 6 hours by default, with readable reasons when it is wrong', () => {
    expect(resolveReportWindow(undefined, undefined, NOW)).toEqual({ from: NOW - 6 * H, to: NOW });
    expect(resolveReportWindow('-1h', 'now', NOW)).toEqual({ from: NOW - H, to: NOW });
    expect(resolveReportWindow('2026-11-23T09:00Z', '2026-11-23T10:00Z', NOW)).toEqual({ from: Date.UTC(2026, 10, 23, 9), to: Date.UTC(2026, 10, 23, 10) });
    expect(resolveReportWindow('soon', 'now', NOW)).toBe('Cannot read "soon" as a start; use e.g. -6h, now or 2026-11-23T09:00Z');
    expect(resolveReportWindow('-1h', 'later', NOW)).toBe('Cannot read "later" as an end; use e.g. now, -1h or 2026-11-23T12:00Z');
    expect(resolveReportWindow('now', '-1h', NOW)).toBe('The end must be after the start.');
    expect(resolveReportWindow('-32d', 'now', NOW)).toBe('A range may span at most 31 days.');
  });

  it('names presets and the downloaded file', () => {
    expect(presetWindow('24h', NOW)).toEqual({ from: NOW - 24 * H, to: NOW });
    expect(reportFileName(Date.UTC(2026, 10, 23, 9), Date.UTC(2026, 10, 23, 12, 30, 5))).toBe('incident-20261123T090000Z-20261123T123005Z.md');
  });
});

describe('the window a route can load before the page opens', () => {
  it('is the window when both ends are absolute, and nothing when either moves with now', () => {
    expect(fixedReportWindow('2026-11-23T09:00Z', '2026-11-23T12:00Z')).toEqual({ from: NOW - 3 * H, to: NOW });
    expect(fixedReportWindow(String(NOW - H), String(NOW))).toEqual({ from: NOW - H, to: NOW });
    expect(fixedReportWindow('-6h', undefined)).toBeNull();
    expect(fixedReportWindow('2026-11-23T09:00Z', 'now')).toBeNull();
    expect(fixedReportWindow(undefined, undefined)).toBeNull();
    expect(fixedReportWindow('2026-11-23T12:00Z', '2026-11-23T09:00Z')).toBeNull();
  });

  it('asks the API with ISO ends, as the page does', () => {
    expect(reportCall({ from: NOW - H, to: NOW }, 'srv')).toEqual({ from: '2026-11-23T11:00:00.000Z', to: '2026-11-23T12:00:00.000Z', serverId: 'srv' });
  });
});
