import { z } from 'zod';
import { DEFAULT_TIME_ZONE, timeZones } from '../../src/lib/time-range';
import { defineCommand } from '../define-command';
import { changeView, needsServerDetail, openServerView } from './current-view';

/** The UTC/Local switch (SPEC §2, default UTC): chart axes and tooltips follow it. Without a value it flips. */
export const setTimezone = defineCommand({
  id: 'server.timezone',
  title: 'Show chart times in UTC or local time',
  category: 'Server detail',
  input: z.object({ tz: z.enum(timeZones).optional() }),
  args: [{ name: 'tz', label: 'Time zone', kind: 'enum', positional: true, optional: true, options: [{ value: 'utc', label: 'UTC' }, { value: 'local', label: 'Local' }] }],
  permission: 'read',
  enabled: needsServerDetail,
  paletteOptions: { arg: 'tz', label: (o) => `Chart times in ${o.label}` },
  history: false,
  run({ tz }, ctx) {
    const current = openServerView(ctx)?.search.tz ?? DEFAULT_TIME_ZONE;
    const next = tz ?? (current === 'utc' ? 'local' : 'utc');
    // UTC is the default, so it leaves the URL clean.
    changeView(ctx, { tz: next === DEFAULT_TIME_ZONE ? undefined : next });
    return { message: `Chart times in **${next === 'utc' ? 'UTC' : 'local time'}**.` };
  },
});
