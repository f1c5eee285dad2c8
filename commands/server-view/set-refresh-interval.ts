import { z } from 'zod';
import { refreshOptions, refreshValues } from '../../src/lib/time-range';
import { defineCommand } from '../define-command';
import { changeView, needsServerDetail } from './current-view';

/** The auto-refresh selector of the metric tabs (SPEC §2: 10s, 30s, 1m, 5m). */
export const setRefreshInterval = defineCommand({
  id: 'server.refresh-interval',
  title: 'Set chart auto-refresh',
  category: 'Server detail',
  input: z.object({ interval: z.enum(refreshValues) }),
  args: [{ name: 'interval', label: 'Refresh every', kind: 'enum', positional: true, options: refreshOptions.map((o) => ({ value: o.value, label: o.label })) }],
  permission: 'read',
  enabled: needsServerDetail,
  paletteOptions: { arg: 'interval', label: (o) => `Refresh every ${o.label}` },
  history: false,
  run({ interval }, ctx) {
    changeView(ctx, { refresh: interval });
    return { message: `Charts refresh every **${interval}**.` };
  },
});
