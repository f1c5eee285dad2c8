import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { updateServer } from '../../src/api/servers';
import { defineCommand } from '../define-command';
import { resolveServer } from '../server/resolve-server';
import { openServerView } from './current-view';

/**
 * SPEC §2/§4: the Maintenance toggle sets suppressAlarm yes or no; afterwards the usage and up
 * status are fetched again. Without on/off it flips the current setting.
 */
export const toggleMaintenance = defineCommand({
  id: 'server.toggle-maintenance',
  title: 'Toggle server maintenance',
  category: 'Server detail',
  description: 'Maintenance suppresses the alarms of a server (suppressAlarm yes/no).',
  input: z.object({ server: z.string().trim().min(1, 'server is required'), mode: z.enum(['on', 'off']).optional() }),
  args: [
    { name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true },
    { name: 'mode', label: 'Maintenance', kind: 'enum', optional: true, positional: true, options: [{ value: 'on', label: 'On (suppress alarms)' }, { value: 'off', label: 'Off' }] },
  ],
  permission: 'servers.write',
  // On a server's detail, "maint" finds "Maintenance on" for that server, as its header's toggle.
  paletteOptions: {
    arg: 'mode',
    label: (o) => `Maintenance ${o.value}`,
    preset: (ctx) => {
      const view = openServerView(ctx);
      return view ? { server: view.serverId } : null;
    },
  },
  // The server is found once: the run flips the setting it has.
  prepare: (input, ctx) => resolveServer(ctx.api, input.server),
  // Back to the setting it had, when the run changed it.
  inverse: (_input, result) => {
    const s = result.data as { _id: string; suppressAlarm: string } | undefined;
    const before = result.before as { suppressAlarm: string } | undefined;
    return s && before && before.suppressAlarm !== s.suppressAlarm ? { id: 'server.toggle-maintenance', input: { server: s._id, mode: before.suppressAlarm === 'yes' ? 'on' : 'off' } } : null;
  },
  async run({ mode }, ctx, found) {
    const on = mode === undefined ? found.suppressAlarm !== 'yes' : mode === 'on';
    const { result } = await updateServer(ctx.api, found._id, { suppressAlarm: on ? 'yes' : 'no' });
    await Promise.all([ctx.invalidate(queryKeys.servers.one(found._id)), ctx.invalidate(queryKeys.servers.usage(found._id)), ctx.invalidate(queryKeys.servers.upstatus(found._id))]);
    return {
      message: on ? `Maintenance **on** for **${result.hostname}**: its alarms are suppressed.` : `Maintenance **off** for **${result.hostname}**: its alarms are raised again.`,
      data: result,
      before: { suppressAlarm: found.suppressAlarm },
    };
  },
});
