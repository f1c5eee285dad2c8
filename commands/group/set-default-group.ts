import { z } from 'zod';
import { setDefaultGroup } from '../../src/api/alert-reach';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveGroup } from './resolve-group';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "and so do the 96 server rules and 3 check rules that notified nobody", or "" when none did. */
export function assignedPhrase(a: { rules: number; checkRules: number }): string {
  const parts = [a.rules ? plural(a.rules, 'server rule') : '', a.checkRules ? plural(a.checkRules, 'check rule') : ''].filter(Boolean);
  return parts.length ? `, and so do the ${parts.join(' and ')} that notified nobody` : '';
}

export const setDefaultGroupCommand = defineCommand({
  id: 'group.set-default',
  title: 'Make a default notification group',
  category: 'Notification Groups',
  description:
    'Choose the group new alert rules notify (a new server’s default rules, a new check’s rules, rules reset to the defaults); every rule that notifies nobody now gets it too. With --none, new rules notify nobody until a group is chosen.',
  input: z
    .object({ group: z.string().trim().min(1).optional(), none: z.boolean().optional() })
    .strict()
    .refine((v) => !!v.group !== (v.none === true), { message: 'Name a notification group, or give --none (not both)', path: ['group'] }),
  args: [
    { name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true },
    { name: 'none', label: 'No default group', kind: 'boolean', optional: true },
  ],
  permission: 'rules.write',
  async run({ group, none }, ctx) {
    if (none) {
      await setDefaultGroup(ctx.api, null);
      await Promise.all([ctx.invalidate(queryKeys.alertReach), ctx.invalidate(queryKeys.alertConfig.all)]);
      return { message: 'No default notification group: new alert rules notify nobody until a group is chosen.' };
    }
    if (!group) throw new CommandError('Name a notification group, or give --none');
    const found = await resolveGroup(ctx.api, group);
    const { result } = await setDefaultGroup(ctx.api, found._id);
    await Promise.all([ctx.invalidate(queryKeys.alertReach), ctx.invalidate(queryKeys.alertConfig.all), ctx.invalidate(queryKeys.checks.all)]);
    return { message: `**${found.name}** is the default notification group: new alert rules notify it${assignedPhrase(result.assigned)}.`, data: result };
  },
});
