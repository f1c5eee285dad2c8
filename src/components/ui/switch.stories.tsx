import type { Story } from '@ladle/react';
import { Switch } from './switch';

export const Switches: Story = () => (
  <div className="flex flex-col gap-3">
    <Switch>Dark Mode</Switch>
    <Switch defaultSelected>Email Enabled</Switch>
    <Switch isDisabled isSelected>
      Slack Enabled (read-only)
    </Switch>
  </div>
);
