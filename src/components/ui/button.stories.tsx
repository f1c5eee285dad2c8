import type { Story } from '@ladle/react';
import { Button } from './button';

export const Variants: Story = () => (
  <div className="flex flex-wrap gap-2">
    <Button variant="primary">Primary</Button>
    <Button>Secondary</Button>
    <Button variant="danger">Delete User</Button>
    <Button variant="ghost">Ghost</Button>
    <Button size="sm">Small</Button>
    <Button round aria-label="Refresh">
      ⟳
    </Button>
    <Button disabledReason="Only Admin accounts can do this.">Disabled with a reason</Button>
  </div>
);
