import { z } from 'zod';
import { importSchedule } from '../../src/api/oncall';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { timeSchema } from '../silence/matcher-fields';
import { layerSummary } from './schedule-fields';

export const importScheduleCommand = defineCommand({
  id: 'schedule.import',
  title: 'Import on-call schedule',
  category: 'On call',
  description:
    'Create a schedule from an iCalendar file (--calendar, its text) that PagerDuty, Opsgenie or Grafana OnCall exports, or a shared calendar: rotations become layers, covers become overrides; people are matched to users by e-mail, then username, and anyone who is not a user is named and nothing is imported. Events are read from --from (default now) for 26 weeks.',
  input: z.object({
    name: z.string({ error: 'name is required' }).trim().min(1, 'name is required').max(100),
    calendar: z.string({ error: 'calendar is required' }).min(1, 'calendar is required'),
    tz: z.string().trim().min(1).max(64).optional(),
    from: timeSchema('from').optional(),
  }),
  args: [
    { name: 'name', label: 'Name', kind: 'text', positional: true, placeholder: 'e.g. Platform primary' },
    { name: 'calendar', label: 'iCalendar text', kind: 'text', placeholder: 'BEGIN:VCALENDAR …' },
    { name: 'tz', label: 'Time zone', kind: 'text', optional: true, placeholder: 'default: the calendar’s' },
    { name: 'from', label: 'Read events from', kind: 'datetime', optional: true },
  ],
  permission: 'oncall.write',
  async run(input, ctx) {
    const { result } = await importSchedule(ctx.api, { name: input.name, calendar: input.calendar, ...(input.tz ? { timeZone: input.tz } : {}), ...(input.from ? { from: input.from } : {}) });
    const s = result.schedule;
    await ctx.invalidate(queryKeys.oncall.all);
    const layers = s.layers.map((l) => `- ${layerSummary(l, s.people)}`).join('\n');
    const warnings = result.warnings.length ? `\n\n${result.warnings.map((w) => `Note: ${w}`).join('\n')}` : '';
    return { message: `Imported **${s.name}** (${s.timeZone}): ${s.layers.length} layer${s.layers.length === 1 ? '' : 's'}, ${s.overrides.length} override${s.overrides.length === 1 ? '' : 's'}.\n${layers}${warnings}`, data: result };
  },
});
