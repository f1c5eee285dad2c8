import type { Story } from '@ladle/react';
import { useState } from 'react';
import { Select } from './select';

export const RoleSelect: Story = () => {
  const [value, setValue] = useState<string | null>(null);
  return (
    <div className="max-w-xs">
      <Select label="Role" placeholder="Please slect Role" value={value} onChange={setValue} options={[{ value: 'admin', label: 'Admin' }, { value: 'sysadmin', label: 'sysadmin' }, { value: 'user', label: 'User' }]} />
    </div>
  );
};
