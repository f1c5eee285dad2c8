import type { Story } from '@ladle/react';
import { TextField } from './text-field';

export const Fields: Story = () => (
  <div className="grid max-w-sm gap-4">
    <TextField label="User name" placeholder="Please enter User name" />
    <TextField label="Email" value="admin@opsdeck.local" isDisabled />
    <TextField label="Phone number" placeholder="Please enter Phonenumber" errorMessage="Required" />
  </div>
);
