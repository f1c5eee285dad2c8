import type { Story } from '@ladle/react';
import { useState } from 'react';
import { Button } from './button';
import { ConfirmDialog, Modal } from './modal';

export const Dialog: Story = () => {
  const [open, setOpen] = useState(true);
  return (
    <>
      <Button onPress={() => setOpen(true)}>Open</Button>
      <Modal title="Add new User" isOpen={open} onOpenChange={setOpen} footer={<Button variant="primary">Create</Button>}>
        <p className="text-sm">Form fields go here.</p>
      </Modal>
    </>
  );
};

export const Confirm: Story = () => {
  const [open, setOpen] = useState(true);
  return (
    <>
      <Button onPress={() => setOpen(true)}>Delete User</Button>
      <ConfirmDialog title="Delete User" message="Are you sure to delete this user?" confirmLabel="Yes" cancelLabel="No" isOpen={open} onAnswer={() => setOpen(false)} />
    </>
  );
};
