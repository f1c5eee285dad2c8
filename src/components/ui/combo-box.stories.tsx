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

/** A form field (the Add New Widget drawer's Server): the box keeps the chosen hostname. */
export const FormField: Story = () => {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <div className="max-w-xs space-y-2">
      <ComboBox
        label="Server"
        placeholder="Search by Hostname"
        inputValue={text}
        onInputChange={(t) => {
          setText(t);
          if (chosen && t !== servers[Number(chosen)]!.label) setChosen(null);
        }}
        items={servers.filter((s) => s.label.includes(text))}
        selectedKey={chosen}
        onSelect={(id) => {
          setChosen(id);
          setText(servers[Number(id)]!.label);
        }}
      />
      <p className="text-sm">Chosen: {chosen === null ? '—' : servers[Number(chosen)]!.label}</p>
    </div>
  );
};
