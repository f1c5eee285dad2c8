import type { Story } from '@ladle/react';
import { useState } from 'react';
import { Segmented } from './segmented';

export const Presets: Story = () => {
  const [range, setRange] = useState<string | null>('1h');
  return (
    <div className="space-y-3">
      <Segmented aria-label="Time range" options={['1h', '3h', '6h', '12h', '24h'].map((v) => ({ value: v, label: `Last ${v}` }))} value={range} onChange={setRange} />
      <Segmented size="sm" aria-label="Status" options={[{ value: 'all', label: 'All' }, { value: 'up', label: 'Active' }, { value: 'down', label: 'Down' }]} value="all" onChange={() => {}} />
      <p className="text-sm">None selected (a custom range):</p>
      <Segmented aria-label="Time range (custom)" options={[{ value: '1h', label: 'Last 1 Hour' }]} value={null} onChange={() => {}} />
    </div>
  );
};
