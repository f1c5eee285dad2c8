import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from './duration';

describe('parseDuration', () => {
  it('reads units, combinations, spaces and bare minutes', () => {
    expect(parseDuration('30m')).toBe(1800);
    expect(parseDuration('90s')).toBe(90);
    expect(parseDuration('2h')).toBe(7200);
    expect(parseDuration('1h30m')).toBe(5400);
    expect(parseDuration(' 1h 30M ')).toBe(5400);
    expect(parseDuration('2d')).toBe(172_800);
    expect(parseDuration('45')).toBe(2700);
  });

  it('refuses what is not a duration', () => {
    for (const text of ['', 'soon', '1w', '1.5h', '-1h', 'h', '1h30', '30 minutes']) expect(parseDuration(text), text).toBeUndefined();
  });
});

describe('formatDuration', () => {
  it('prints every unit present, largest first, leaving zeros out', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(1800)).toBe('30m');
    expect(formatDuration(5400)).toBe('1h 30m');
    expect(formatDuration(3605)).toBe('1h 5s');
    expect(formatDuration(86_400 + 2 * 3600 + 3 * 60 + 4)).toBe('1d 2h 3m 4s');
  });

  it('keeps only the largest units it is asked for, counted from the largest present', () => {
    expect(formatDuration(12 * 60 + 5, 2)).toBe('12m 5s');
    expect(formatDuration(3605, 2)).toBe('1h');
    expect(formatDuration(3900, 2)).toBe('1h 5m');
    expect(formatDuration(2 * 86_400 + 3 * 3600 + 59, 2)).toBe('2d 3h');
    expect(formatDuration(86_400 + 5 * 60, 2)).toBe('1d');
    expect(formatDuration(3 * 86_400 + 4 * 3600 + 5, 1)).toBe('3d');
  });

  it('rounds to whole seconds and signs negative spans', () => {
    expect(formatDuration(59.6)).toBe('1m');
    expect(formatDuration(0.4)).toBe('0s');
    expect(formatDuration(-0.4)).toBe('0s');
    expect(formatDuration(-306, 2)).toBe('-5m 6s');
  });

  it('prints what parseDuration reads back', () => {
    for (const s of [60, 90, 3600, 5400, 86_400 + 61, 30 * 86_400]) expect(parseDuration(formatDuration(s))).toBe(s);
  });
});
