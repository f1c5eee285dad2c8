import { z } from 'zod';
import { serverTabLabels, serverTabs } from '../../src/lib/server-view';
import { defineCommand } from '../define-command';
import { changeView, needsServerDetail } from './current-view';

/** Opens a tab of the server detail (Overview exists on Linux only; Windows shows CPU instead). */
export const showTab = defineCommand({
  id: 'server.tab',
  title: 'Open server detail tab',
  category: 'Server detail',
  input: z.object({ tab: z.enum(serverTabs) }),
  args: [{ name: 'tab', label: 'Tab', kind: 'enum', positional: true, options: serverTabs.map((t) => ({ value: t, label: serverTabLabels[t] })) }],
  permission: 'read',
  enabled: needsServerDetail,
  paletteOptions: { arg: 'tab', label: (o) => `${o.label} tab` },
  history: false,
  run({ tab }, ctx) {
    changeView(ctx, { tab });
    return {};
  },
});
