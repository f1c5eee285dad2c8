import type { Story } from '@ladle/react';
import { useState } from 'react';
import { ComboBox } from './combo-box';

const servers = ['web-01', 'web-02', 'db-01', 'cache-01', 'win-app-01'].map((h, i) => ({ id: String(i), label: h, description: `10.0.0.${i + 1}` }));

export const SwitchServer: Story = () => {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <div className="max-w-xs space-y-2">
      <ComboBox
        aria-label="Switch Server"
        placeholder="Switch Server"
        inputValue={text}
        onInputChange={setText}
        items={servers.filter((s) => s.label.includes(text))}
        onSelect={(id) => {
          setChosen(id);
          setText('');
        }}
        emptyText="No active servers match"
      />
      <p className="text-sm">Chosen: {chosen ?? '—'}</p>
    </div>
  );
};
