import type { Story } from '@ladle/react';
import { useState } from 'react';
import { Button } from './button';
import { Drawer } from './drawer';

export const SidePanel: Story = () => {
  const [open, setOpen] = useState(true);
  return (
    <>
      <Button onPress={() => setOpen(true)}>Open drawer</Button>
      <Drawer title="Account Settings" isOpen={open} onOpenChange={setOpen} footer={<Button variant="danger">Delete User</Button>}>
        <p className="text-sm">756 px wide, full width on small screens.</p>
      </Drawer>
    </>
  );
};
