import type { Story } from '@ladle/react';
import { useState } from 'react';
import { Tabs } from './tabs';

const items = [
  { id: 'overview', label: 'Overview' },
  { id: 'cpu', label: 'CPU' },
  { id: 'memory', label: 'Memory' },
  { id: 'services', label: 'Services' },
] as const;

export const ServerTabs: Story = () => {
  const [tab, setTab] = useState<(typeof items)[number]['id']>('overview');
  return (
    <Tabs aria-label="Server detail" items={items} selectedKey={tab} onSelectionChange={setTab}>
      {(key) => <p className="text-sm">Content of {key}.</p>}
    </Tabs>
  );
};
