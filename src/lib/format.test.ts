import { describe, expect, it } from 'vitest';
import { formatByteRate, formatBytes, formatPercent, formatRelativeTime, formatUptime, serverStateDisplay, usageTone, middleEllipsis } from './format';

describe('formatBytes (SPEC §2: B, KB, MB, GB, TB, PB, one decimal, 1024-based)', () => {
  it.each([
    [0, '0.0 B'],
    [1, '1.0 B'],
    [1023, '1023.0 B'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [1024 ** 2 - 1, '1.0 MB'], // 1023.999 KB rounds to 1024.0: shown in the next unit
    [1024 ** 2, '1.0 MB'],
    [1.5 * 1024 ** 2, '1.5 MB'],
    [1024 ** 3, '1.0 GB'],
    [1024 ** 4, '1.0 TB'],
    [1024 ** 5, '1.0 PB'],
    [2048 * 1024 ** 5, '2048.0 PB'], // PB is the largest unit
    [0.4, '0.4 B'],
  ])('%d bytes → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));

  it('shows -- for missing or impossible values', () => {
    for (const v of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, -1]) expect(formatBytes(v)).toBe('--');
  });

  it('network usage is a rate', () => {
    expect(formatByteRate(1536)).toBe('1.5 KB/s');
    expect(formatByteRate(null)).toBe('--');
  });
});

describe('formatPercent', () => {
  it('one decimal, -- when empty', () => {
    expect(formatPercent(42.25)).toBe('42.3%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(null)).toBe('--');
  });
});

describe('formatUptime (days, hours, minutes, seconds)', () => {
  it.each([
    [0, '0s'],
    [59, '59s'],
    [60, '1m 0s'],
    [3599, '59m 59s'],
    [3600, '1h 0m 0s'],
    [86_399, '23h 59m 59s'],
    [86_400, '1d 0h 0m 0s'],
    [3 * 86_400 + 4 * 3600 + 5 * 60 + 6.9, '3d 4h 5m 6s'],
  ])('%d s → %s', (s, text) => expect(formatUptime(s)).toBe(text));

  it('shows -- when unknown', () => {
    expect(formatUptime(null)).toBe('--');
    expect(formatUptime(undefined)).toBe('--');
    expect(formatUptime(-5)).toBe('--');
  });
});

describe("formatRelativeTime ('Last Updated')", () => {
  const now = Date.parse('2026-03-20T12:00:00Z');
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
  const rel = (seconds: number) => formatRelativeTime(ago(seconds), now, { timeZone: 'UTC' });

  it.each([
    [0, 'just now'],
    [59, 'just now'],
    [60, '1 minute ago'],
    [119, '1 minute ago'],
    [120, '2 minutes ago'],
    [3599, '59 minutes ago'],
    [3600, '1 hour ago'],
    [7200, '2 hours ago'],
    [86_399, '23 hours ago'],
    [86_400, 'yesterday'],
    [2 * 86_400 - 1, 'yesterday'],
    [2 * 86_400, '2 days ago'],
    [7 * 86_400 - 1, '6 days ago'],
    [7 * 86_400, '1 week ago'],
    [14 * 86_400, '2 weeks ago'],
    [28 * 86_400 - 1, '3 weeks ago'],
  ])('%d s ago → %s', (s, text) => expect(rel(s)).toBe(text));

  it('four weeks and more show the date', () => {
    expect(rel(28 * 86_400)).toBe('Feb 20, 2026');
    expect(formatRelativeTime('2025-01-05T10:00:00Z', now, { timeZone: 'UTC' })).toBe('Jan 5, 2025');
  });

  it('a time slightly in the future (clock skew) is just now; missing is --', () => {
    expect(rel(-30)).toBe('just now');
    expect(formatRelativeTime(null, now)).toBe('--');
    expect(formatRelativeTime('not a date', now)).toBe('--');
  });

  it('accepts Date and epoch milliseconds', () => {
    expect(formatRelativeTime(new Date(now - 300_000), new Date(now))).toBe('5 minutes ago');
    expect(formatRelativeTime(now - 300_000, now)).toBe('5 minutes ago');
  });
});

describe('usageTone (SPEC §9: red above 90, orange above 70, else green)', () => {
  it.each([
    [0, 'green'],
    [70, 'green'],
    [70.1, 'orange'],
    [90, 'orange'],
    [90.1, 'red'],
    [100, 'red'],
  ])('%d%% → %s', (v, tone) => expect(usageTone(v)).toBe(tone));
  it('no colour without a value', () => expect(usageTone(null)).toBe('none'));
});

describe('serverStateDisplay (SPEC §2)', () => {
  it('up is green Running, down is red Down, anything else orange as written', () => {
    expect(serverStateDisplay('up')).toEqual({ label: 'Running', tone: 'green' });
    expect(serverStateDisplay('down')).toEqual({ label: 'Down', tone: 'red' });
    expect(serverStateDisplay('unknown')).toEqual({ label: 'unknown', tone: 'orange' });
    // No fresh figures (issue 12): never 'Running'.
    expect(serverStateDisplay('stale')).toEqual({ label: 'Stale', tone: 'orange' });
    expect(serverStateDisplay('')).toEqual({ label: '--', tone: 'none' });
  });
});

describe('middleEllipsis', () => {
  it('keeps short text and shortens long text in the middle, keeping both ends', () => {
    expect(middleEllipsis('web-01', 10)).toBe('web-01');
    const a = middleEllipsis('web-frontend-production-eu-west-a01', 20);
    const b = middleEllipsis('web-frontend-production-eu-west-b02', 20);
    expect(a).toHaveLength(20);
    expect(a).toBe('web-front…u-west-a01');
    expect(a).not.toBe(b);
  });
});
