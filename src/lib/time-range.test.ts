import { describe, expect, it } from 'vitest';
import { defaultRefresh, MAX_RANGE_MS, parseDateTime, refreshMs, resolveWindow, toDateTimeInput, validateCustomRange } from './time-range';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const H = 3_600_000;

describe('resolveWindow', () => {
  it('ends presets now', () => {
    expect(resolveWindow({ range: '1h' }, NOW)).toEqual({ from: NOW - H, to: NOW });
    expect(resolveWindow({ range: '3h' }, NOW)).toEqual({ from: NOW - 3 * H, to: NOW });
    expect(resolveWindow({ range: '24h' }, NOW)).toEqual({ from: NOW - 24 * H, to: NOW });
  });

  it('uses a valid custom pair as given and falls back to the last hour otherwise', () => {
    expect(resolveWindow({ range: 'custom', from: NOW - 5 * H, to: NOW - 4 * H }, NOW)).toEqual({ from: NOW - 5 * H, to: NOW - 4 * H });
    expect(resolveWindow({ range: 'custom', from: NOW - 5 * H }, NOW)).toEqual({ from: NOW - H, to: NOW });
    expect(resolveWindow({ range: 'custom', from: NOW, to: NOW - H }, NOW)).toEqual({ from: NOW - H, to: NOW });
  });
});

describe('validateCustomRange', () => {
  it('wants a pair, the end after the start, at most 31 days', () => {
    expect(validateCustomRange(undefined, undefined)).toBe('Choose a start and an end.');
    expect(validateCustomRange(NOW, undefined)).toBe('Choose an end as well as a start.');
    expect(validateCustomRange(null, NOW)).toBe('Choose a start as well as an end.');
    expect(validateCustomRange(NOW, NOW)).toBe('The end must be after the start.');
    expect(validateCustomRange(NOW, NOW - 1)).toBe('The end must be after the start.');
    expect(validateCustomRange(NOW - MAX_RANGE_MS - 1, NOW)).toBe('A range may span at most 31 days.');
    expect(validateCustomRange(NOW - H, NOW)).toBe(true);
  });
});

describe('refresh', () => {
  it('defaults to 10s, 5m on Windows (SPEC §2)', () => {
    expect(defaultRefresh('linux')).toBe('10s');
    expect(defaultRefresh('windows')).toBe('5m');
    expect(refreshMs('1m')).toBe(60_000);
  });
});

describe('parseDateTime', () => {
  it('reads zoneless times in the chosen zone', () => {
    expect(parseDateTime('2026-11-23T12:00', 'utc')).toBe(NOW);
    expect(parseDateTime('2026-11-23 12:00:00', 'utc')).toBe(NOW);
    expect(parseDateTime('2026-11-23', 'utc')).toBe(Date.UTC(2026, 10, 23));
    expect(parseDateTime('2026-11-23T12:00', 'local')).toBe(new Date(2026, 10, 23, 12, 0).getTime());
  });

  it('honours an explicit zone and takes unix seconds or milliseconds', () => {
    expect(parseDateTime('2026-11-23T14:00:00+02:00', 'local')).toBe(NOW);
    expect(parseDateTime(NOW, 'utc')).toBe(NOW);
    expect(parseDateTime(String(NOW / 1000), 'utc')).toBe(NOW);
  });

  it('refuses nonsense', () => {
    expect(parseDateTime('yesterday-ish', 'utc')).toBeNull();
    expect(parseDateTime('2026-02-31', 'utc')).toBeNull();
    expect(parseDateTime('2026-13-01T00:00', 'utc')).toBeNull();
    expect(parseDateTime('', 'utc')).toBeNull();
  });

  it('round-trips through the datetime-local input value', () => {
    expect(toDateTimeInput(NOW, 'utc')).toBe('2026-11-23T12:00');
    expect(parseDateTime(toDateTimeInput(NOW, 'local'), 'local')).toBe(NOW);
  });
});
