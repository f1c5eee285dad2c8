import type { Story } from '@ladle/react';
import { BarGauge, Gauge } from './gauge';

export const Gauges: Story = () => (
  <div className="grid max-w-3xl grid-cols-2 gap-4 sm:grid-cols-4">
    <div className="h-36">
      <Gauge label="CPU" value={42.5} display="42.5%" tone="ok" caption="4 cores" />
    </div>
    <div className="h-36">
      <Gauge label="Memory" value={71} display="71%" tone="warning" caption="of 16.0 GB" />
    </div>
    <div className="h-36">
      <Gauge label="Disk" value={93.2} display="93.2%" tone="error" />
    </div>
    <div className="h-36">
      <Gauge label="Swap" value={null} display="--" tone="none" />
    </div>
  </div>
);

export const Bars: Story = () => (
  <div className="max-w-sm">
    <BarGauge
      items={[
        { label: 'C:', value: 54, display: '54%', tone: 'ok' },
        { label: 'D:', value: 77, display: '77%', tone: 'warning' },
        { label: 'E:', value: 96, display: '96%', tone: 'error' },
      ]}
    />
  </div>
);
