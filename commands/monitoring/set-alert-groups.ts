import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { setMonitoringAlertGroups } from '../../src/api/ops';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveGroup } from '../group/resolve-group';

/** Group names or ids: a list from a screen, or one text "On-call, Platform" from the command line. */
const groupListSchema = z
  .union([z.array(z.string().trim()), z.string()], { error: 'groups must be notification group names or ids' })
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((g) => g.trim()).filter(Boolean));

/**
 * Who gets "Monitoring backend unreachable" (issue 12), the alert Opsdeck opens about itself when
 * its figures stop: the groups named, or with `--default` every group with email on.
 */
export const setMonitoringAlertGroupsCommand = defineCommand({
  id: 'monitoring.set-alert-groups',
  title: 'Choose who gets "Monitoring backend unreachable"',
  category: 'Monitoring',
  description:
    'Send the alert Opsdeck opens when its monitoring backend goes blind to these notification groups, or with --default to every group with email on (the default).',
  input: z
    .object({
      groups: groupListSchema.optional(),
      default: z.boolean({ error: 'default must be true or false' }).optional(),
    })
    .strict()
    .refine((v) => (v.groups?.length ?? 0) > 0 !== (v.default === true), { message: 'Name the groups, or give --default (not both)', path: ['groups'] }),
  args: [
    { name: 'groups', label: 'Notification groups', kind: 'text', positional: true, optional: true, placeholder: 'Group names, separated by commas' },
    { name: 'default', label: 'Every group with email on', kind: 'boolean', optional: true },
  ],
  permission: 'settings.write',
  async run({ groups }, ctx) {
    let ids: string[] | null = null;
    if (groups?.length) {
      const found = await Promise.all(groups.map((g) => resolveGroup(ctx.api, g)));
      ids = [...new Set(found.map((g) => g._id))];
      if (!ids.length) throw new CommandError('Name at least one notification group');
    }
    const { result } = await setMonitoringAlertGroups(ctx.api, ids);
    await ctx.invalidate(queryKeys.monitoringAlertGroups);
    const names = result.effective.map((g) => `**${g.name}**`).join(', ') || 'no group (none has email on)';
    return {
      message: result.groupIds === null ? `"Monitoring backend unreachable" goes to every group with email on: ${names}.` : `"Monitoring backend unreachable" goes to ${names}.`,
      data: result,
    };
  },
});
