import { z } from 'zod';
import { defineCommand } from '../define-command';
import { resolveGroup } from './resolve-group';

export const showGroup = defineCommand({
  id: 'group.show',
  title: 'Show notification group',
  category: 'Notification Groups',
  description: 'Open a notification group’s details, by name or id (a unique part of a name is enough).',
  input: z.object({ group: z.string().trim().min(1, 'group is required') }).strict(),
  args: [{ name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true }],
  permission: 'read',
  history: false,
  async run({ group }, ctx) {
    const found = await resolveGroup(ctx.api, group);
    ctx.navigate(`/notification-groups/show/${found._id}`);
    return { message: `Opened **${found.name}**.`, data: found };
  },
});
