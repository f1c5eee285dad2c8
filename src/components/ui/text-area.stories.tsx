import type { Story } from '@ladle/react';
import { TextArea } from './text-area';

export const Notes: Story = () => (
  <div className="grid max-w-md gap-4">
    <TextArea label="Notes" placeholder="What was done, or why (markdown)" />
    <TextArea label="Notes" errorMessage="Add Notes" />
  </div>
);
