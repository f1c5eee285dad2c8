import type { Story } from '@ladle/react';
import { useState } from 'react';
import { Button } from './button';
import { Checkbox } from './checkbox';

export const Checkboxes: Story = () => {
  const [understood, setUnderstood] = useState(false);
  return (
    <div className="flex max-w-sm flex-col gap-3">
      <Checkbox isSelected={understood} onChange={setUnderstood}>
        I understand the consequences of deleting this server.
      </Checkbox>
      <Button variant="danger" isDisabled={!understood}>
        Delete
      </Button>
      <Checkbox defaultSelected>Selected</Checkbox>
      <Checkbox isDisabled>Disabled</Checkbox>
      <Checkbox isInvalid>Invalid</Checkbox>
    </div>
  );
};
