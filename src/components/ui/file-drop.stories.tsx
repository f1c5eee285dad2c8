import type { Story } from '@ladle/react';
import { useState } from 'react';
import { FileDrop } from './file-drop';

export const CalendarFile: Story = () => {
  const [got, setGot] = useState('');
  return (
    <div className="max-w-xl space-y-2">
      <FileDrop label="Drop an iCalendar file" hint="Drop an .ics file here, or" buttonLabel="Choose .ics file" accept={['.ics', 'text/calendar']} maxBytes={1_000_000} onText={(text, name) => setGot(`${name}: ${text.length} characters`)} />
      <p className="text-sm">{got}</p>
    </div>
  );
};

export const Disabled: Story = () => <FileDrop label="Drop an iCalendar file" hint="Drop an .ics file here, or" buttonLabel="Choose .ics file" accept={['.ics']} maxBytes={1_000_000} onText={() => undefined} disabledReason="Only admins and sysadmins change schedules" />;
