import { z } from 'zod';
import { DEFAULT_TIME_ZONE, parseDateTime, presetLabel, rangePresets, rangeValues, validateCustomRange } from '../../src/lib/time-range';
import { formatChartTime } from '../../src/lib/chart-format';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { changeView, needsServerDetail, openServerView } from './current-view';

const when = z.union([z.string().trim().min(1).max(64), z.number()]);
/** A preset range takes no start and end: the palette asks for them after "Custom range" only. */
const customOnly = (v: Record<string, unknown>) => v.range === undefined || v.range === 'custom';

/**
 * The time-range bar of the metric tabs (SPEC §2): a preset (1h … 24h) or a custom start/end
 * pair. Dates without a zone are read in the zone the charts show (UTC or local).
 */
export const setTimeRange = defineCommand({
  id: 'server.time-range',
  title: 'Set chart time range',
  category: 'Server detail',
  description: 'Last 1, 3, 6, 12 or 24 hours, or custom --from … --to … (e.g. 2026-11-23T09:00).',
  input: z
    .object({ range: z.enum(rangeValues).optional(), from: when.optional(), to: when.optional() })
    .refine((v) => v.range !== undefined || v.from !== undefined || v.to !== undefined, { message: 'Choose a range (1h, 3h, 6h, 12h, 24h) or a custom --from and --to', path: ['range'] })
    .refine((v) => v.range === undefined || v.range === 'custom' || (v.from === undefined && v.to === undefined), { message: 'A preset range takes no --from/--to; use --range custom', path: ['range'] })
    .refine((v) => (v.from === undefined) === (v.to === undefined), { message: 'A custom range needs both --from and --to', path: ['to'] }),
  args: [
    { name: 'range', label: 'Range', kind: 'enum', positional: true, optional: true, skippable: false, options: [...rangePresets.map((p) => ({ value: p.value, label: p.label })), { value: 'custom', label: 'Custom range' }] },
    { name: 'from', label: 'Start', kind: 'datetime', optional: true, placeholder: 'Start, e.g. 2026-11-23T09:00', askWhen: customOnly },
    { name: 'to', label: 'End', kind: 'datetime', optional: true, placeholder: 'End, e.g. 2026-11-23T12:00', askWhen: customOnly },
  ],
  permission: 'read',
  enabled: needsServerDetail,
  paletteOptions: { arg: 'range', label: (o) => o.label, except: ['custom'] },
  history: false,
  run(input, ctx) {
    if (input.range !== undefined && input.range !== 'custom') {
      changeView(ctx, { range: input.range, from: undefined, to: undefined });
      return { message: `Showing **${presetLabel(input.range)}**.` };
    }
    const tz = openServerView(ctx)?.search.tz ?? DEFAULT_TIME_ZONE;
    const from = parseDateTime(input.from, tz);
    const to = parseDateTime(input.to, tz);
    if (input.from !== undefined && from === null) throw new CommandError(`Cannot read "${input.from}" as a start time; try 2026-11-23T09:00`);
    if (input.to !== undefined && to === null) throw new CommandError(`Cannot read "${input.to}" as an end time; try 2026-11-23T12:00`);
    const valid = validateCustomRange(from, to);
    if (valid !== true) throw new CommandError(valid);
    changeView(ctx, { range: 'custom', from, to });
    return { message: `Showing ${formatChartTime(from! / 1000, tz)} to ${formatChartTime(to! / 1000, tz)}.` };
  },
});
