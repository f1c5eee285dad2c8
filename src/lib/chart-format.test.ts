import { describe, expect, it } from 'vitest';
import { asPercent, formatAxisTicks, formatChartTime, formatChartValue, formatDuration, gaugeTone, lastValue, isPercentUnit, scaleFor, axisIncrements } from './chart-format';

describe('formatChartValue', () => {
  it('shows percent and share as percentages with one decimal', () => {
    expect(formatChartValue(42.345, 'percent')).toBe('42.3%');
    expect(formatChartValue(0.4234, 'share')).toBe('42.3%');
    expect(formatChartValue(100, 'percent')).toBe('100%');
  });

  it('scales bytes by 1024 with SPEC unit names', () => {
    expect(formatChartValue(0, 'bytes')).toBe('0 B');
    expect(formatChartValue(1023, 'bytes')).toBe('1023 B');
    expect(formatChartValue(1536, 'bytes')).toBe('1.5 KB');
    expect(formatChartValue(16 * 1024 ** 3, 'bytes')).toBe('16 GB');
    expect(formatChartValue(2.5 * 1024 ** 2, 'bytes/s')).toBe('2.5 MB/s');
  });

  it('scales bits/s by 1000', () => {
    expect(formatChartValue(999, 'bits/s')).toBe('999 b/s');
    expect(formatChartValue(12_300_000, 'bits/s')).toBe('12.3 Mb/s');
  });

  it('uses SI prefixes for rates and counts', () => {
    expect(formatChartValue(12, 'ops/s')).toBe('12 ops/s');
    expect(formatChartValue(1234, 'ops/s')).toBe('1.23k ops/s');
    expect(formatChartValue(3.5, 'packets/s')).toBe('3.5 p/s');
    expect(formatChartValue(8, 'count')).toBe('8');
    expect(formatChartValue(1_250_000, 'count')).toBe('1.25M');
    expect(formatChartValue(2.5, 'unknown-unit')).toBe('2.5');
  });

  it('keeps negative values (received traffic is drawn below zero)', () => {
    expect(formatChartValue(-2048, 'bytes/s')).toBe('-2 KB/s');
  });

  it('shows durations compactly', () => {
    expect(formatChartValue(0.12, 'seconds')).toBe('120 ms');
    expect(formatChartValue(6.2, 'seconds')).toBe('6.2 s');
    expect(formatChartValue(306, 'seconds')).toBe('5m 6s');
    expect(formatChartValue(3 * 86_400 + 4 * 3600 + 5, 'seconds')).toBe('3d 4h');
    expect(formatDuration(-0.002)).toBe('-2 ms');
  });

  it('shows missing values as --', () => {
    expect(formatChartValue(null, 'bytes')).toBe('--');
    expect(formatChartValue(Number.NaN, 'percent')).toBe('--');
    expect(formatChartValue(undefined, 'count')).toBe('--');
  });
});

describe('formatAxisTicks', () => {
  it('puts every tick on the scale of the largest, with the decimals the step needs', () => {
    const gb = 1024 ** 3;
    expect(formatAxisTicks([0, 0.5 * gb, gb, 1.5 * gb], 'bytes')).toEqual(['0.0 GB', '0.5 GB', '1.0 GB', '1.5 GB']);
    expect(formatAxisTicks([0, 25, 50, 75, 100], 'percent')).toEqual(['0%', '25%', '50%', '75%', '100%']);
    expect(formatAxisTicks([0, 0.25, 0.5], 'share')).toEqual(['0%', '25%', '50%']);
    expect(formatAxisTicks([-2e6, 0, 2e6], 'bits/s')).toEqual(['-2 Mb/s', '0 Mb/s', '2 Mb/s']);
  });

  it('handles an empty or single-tick axis', () => {
    expect(formatAxisTicks([], 'bytes')).toEqual([]);
    expect(formatAxisTicks([5], 'count')).toEqual(['5']);
  });
});

describe('scaleFor', () => {
  it('picks time units for seconds', () => {
    expect(scaleFor('seconds', 0.0004).suffix).toBe(' µs');
    expect(scaleFor('seconds', 7200).suffix).toBe(' h');
  });
});

describe('formatChartTime', () => {
  it('shows UTC with its zone name, local without', () => {
    const t = Date.UTC(2026, 10, 23, 9, 5, 3) / 1000;
    expect(formatChartTime(t, 'utc')).toBe('2026-11-23 09:05:03 UTC');
    const d = new Date(t * 1000);
    expect(formatChartTime(t, 'local')).toBe(
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${String(d.getHours()).padStart(2, '0')}:05:03`,
    );
  });
});

describe('gauges', () => {
  it('colours error above 80 and warning above 60 (SPEC §9)', () => {
    expect(gaugeTone(80.1)).toBe('error');
    expect(gaugeTone(80)).toBe('warning');
    expect(gaugeTone(60.5)).toBe('warning');
    expect(gaugeTone(60)).toBe('ok');
    expect(gaugeTone(null)).toBe('none');
  });

  it('reads shares as percentages and takes the newest value', () => {
    expect(asPercent(0.5, 'share')).toBe(50);
    expect(asPercent(50, 'percent')).toBe(50);
    expect(lastValue([1, 2, null])).toBe(2);
    expect(lastValue([null, null])).toBeNull();
  });
});

describe('the chart API unit names', () => {
  it('reads percentunit as a share and short as a count', () => {
    expect(formatChartValue(0.25, 'percentunit')).toBe('25%');
    expect(formatAxisTicks([0, 0.5, 1], 'percentunit')).toEqual(['0%', '50%', '100%']);
    expect(asPercent(0.5, 'percentunit')).toBe(50);
    expect(formatChartValue(8, 'short')).toBe('8');
    expect(formatChartValue(1_250_000, 'short')).toBe('1.25M');
    expect(isPercentUnit('percentunit')).toBe(true);
    expect(isPercentUnit('percent')).toBe(true);
    expect(isPercentUnit('bits/s')).toBe(false);
  });
  it('formats pages per second', () => {
    expect(formatChartValue(1500, 'pages/s')).toBe('1.5k pages/s');
  });
});

describe('axis tick decimals', () => {
  it('keeps the decimals a 2.5 step needs', () => {
    expect(formatAxisTicks([0, 2.5, 5, 7.5], 'ops/s')).toEqual(['0.0 ops/s', '2.5 ops/s', '5.0 ops/s', '7.5 ops/s']);
    expect(formatAxisTicks([0, 20, 40], 'percent')).toEqual(['0%', '20%', '40%']);
  });
});

describe('axisIncrements', () => {
  it('steps byte axes in whole binary units and leaves the others to uPlot', () => {
    const incrs = axisIncrements('bytes')!;
    expect(incrs).toContain(10 * 1024 ** 3);
    expect(incrs).not.toContain(1e9);
    expect(axisIncrements('bytes/s')).toEqual(incrs);
    expect(axisIncrements('percent')).toBeUndefined();
  });
});
