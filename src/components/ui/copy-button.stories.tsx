import type { Story } from '@ladle/react';
import { CopyButton } from './copy-button';

export const Copy: Story = () => (
  <span className="inline-flex items-center gap-1 font-mono text-sm">
    10.0.0.12 <CopyButton value="10.0.0.12" label="IP Address 10.0.0.12" />
  </span>
);
