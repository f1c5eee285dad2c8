import { z } from 'zod';
import { listWindows } from '../../src/api/maintenance-windows';
import { defineCommand } from '../define-command';
import { windowSummary } from './window-fields';

export const listWindowsCommand = defineCommand({
  id: 'maintenance.list',
  title: 'Maintenance windows',
  category: 'Maintenance',
  description: 'Open the Maintenance screen (Notifications › Maintenance) as a list, and list the windows.',
  input: z.object({}).strict(),
  permission: 'read',
  history: false,
  async run(_input, ctx) {
    ctx.navigate('/notifications/maintenance');
    const { result } = await listWindows(ctx.api, { pageNumber: 1, pageSize: 10, sort: { by: 'startsAt', direction: 'desc' } });
    if (!result.count) return { message: 'No maintenance windows.' };
    return { message: `${result.count} maintenance window${result.count === 1 ? '' : 's'}:\n${result.data.map((w) => `- ${windowSummary(w)}`).join('\n')}`, data: result.data };
  },
});

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export const calendarCommand = defineCommand({
  id: 'maintenance.calendar',
  title: 'Maintenance calendar',
  category: 'Maintenance',
  description: 'Open the maintenance calendar: every occurrence of every window, a month at a time (--month 2026-06; default this month).',
  input: z.object({ month: z.string().trim().regex(MONTH, 'month: give it as YYYY-MM, e.g. 2026-06').optional() }),
  args: [{ name: 'month', label: 'Month', kind: 'text', optional: true, placeholder: 'YYYY-MM (empty: this month)' }],
  permission: 'read',
  history: false,
  run({ month }, ctx) {
    ctx.navigate(`/notifications/maintenance?view=calendar${month ? `&month=${month}` : ''}`);
    return { message: `Opened the maintenance calendar${month ? ` for ${month}` : ''}.` };
  },
});
