import type { Story } from '@ladle/react';
import { useState } from 'react';
import { axisIncrements, formatAxisTicks, formatChartTime, formatChartValue } from '../../lib/chart-format';
import { Segmented } from './segmented';
import { TimeSeriesChart } from './time-series-chart';

const now = Math.floor(Date.UTC(2026, 10, 23, 12) / 1000);
const timestamps = Array.from({ length: 120 }, (_, i) => now - (119 - i) * 30);
const wave = (phase: number, scale: number) => timestamps.map((t, i) => (i === 60 ? null : Math.max(0, scale * (0.5 + 0.4 * Math.sin(t / 600 + phase)))));

/** A network panel (bits/s, 1000-based): switch UTC/Local and the Ladle theme to see axes and colours follow. */
export const NetworkTraffic: Story = () => {
  const [tz, setTz] = useState<'utc' | 'local'>('utc');
  return (
    <div className="max-w-3xl space-y-3">
      <Segmented aria-label="Time zone" options={[{ value: 'utc', label: 'UTC' }, { value: 'local', label: 'Local' }]} value={tz} onChange={setTz} />
      <TimeSeriesChart
        ariaLabel="Network Traffic"
        height={400}
        timeZone={tz}
        timestamps={timestamps}
        series={[
          { label: 'recv eth0', values: wave(0, 80e6) },
          { label: 'trans eth0', values: wave(1.5, 20e6) },
        ]}
        formatValue={(v) => formatChartValue(v, 'bits/s')}
        formatTicks={(t) => formatAxisTicks(t, 'bits/s')}
        formatTime={(s) => formatChartTime(s, tz)}
      />
    </div>
  );
};

export const CpuShare: Story = () => (
  <div className="max-w-xl">
    <TimeSeriesChart
      ariaLabel="CPU Basic"
      height={200}
      timeZone="utc"
      yMin={0}
      yMax={1}
      timestamps={timestamps}
      series={['System', 'User', 'Iowait'].map((label, i) => ({ label, values: wave(i, 0.3 - i * 0.1) }))}
      formatValue={(v) => formatChartValue(v, 'share')}
      formatTicks={(t) => formatAxisTicks(t, 'share')}
      formatTime={(s) => formatChartTime(s, 'utc')}
    />
  </div>
);

/** Bytes: ticks step in whole GB (yIncrements), not in decimal 9.3 GB steps. */
export const MemoryBytes: Story = () => (
  <div className="max-w-xl">
    <TimeSeriesChart
      ariaLabel="Memory Basic"
      height={240}
      timeZone="utc"
      timestamps={timestamps}
      series={[
        { label: 'RAM Total', values: timestamps.map(() => 40 * 1024 ** 3) },
        { label: 'RAM Used', values: wave(0, 30 * 1024 ** 3) },
      ]}
      yIncrements={axisIncrements('bytes')}
      formatValue={(v) => formatChartValue(v, 'bytes')}
      formatTicks={(t) => formatAxisTicks(t, 'bytes')}
      formatTime={(s) => formatChartTime(s, 'utc')}
    />
  </div>
);

export const Empty: Story = () => (
  <div className="max-w-xl">
    <TimeSeriesChart ariaLabel="Disk IOps" height={200} timeZone="utc" timestamps={[]} series={[]} formatValue={String} formatTime={String} />
  </div>
);
