import type { Story } from '@ladle/react';
import { useState } from 'react';
import { Button } from './button';
import { Drawer, FormDrawer as FormDrawerComponent, FormDrawerFooter } from './drawer';

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

export const FormDrawer: Story = () => {
  const [open, setOpen] = useState(true);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button onPress={() => setOpen(true)}>Open drawer</Button>
      <Drawer
        title="Create Notification Group"
        isOpen={open}
        onOpenChange={setOpen}
        footer={<FormDrawerFooter formId="story-form" label="Create" busyLabel="Creating…" busy={busy} onCancel={() => setOpen(false)} />}
      >
        <form id="story-form" onSubmit={(e) => (e.preventDefault(), setBusy(true))}>
          <p className="text-sm">Submit shows the busy label and disables the button.</p>
        </form>
      </Drawer>
    </>
  );
};

export const UpdateFormLoading: Story = () => {
  const [loading, setLoading] = useState(true);
  return (
    <>
      <Button onPress={() => setLoading((l) => !l)}>{loading ? 'Finish loading' : 'Load again'}</Button>
      <FormDrawerComponent title="Update Server" formId="story-update" mode="edit" busy={false} loading={loading} onClose={() => setLoading(true)}>
        <form id="story-update" onSubmit={(e) => e.preventDefault()}>
          <p className="text-sm">Skeleton fields while the record loads; Update stays disabled until then.</p>
        </form>
      </FormDrawerComponent>
    </>
  );
};
