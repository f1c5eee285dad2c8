import { z } from 'zod';
import type { NotificationGroup, UpdateNotificationGroup } from '../../server/contract/alerts';
import { uniqueEmails } from '../../server/contract/alerts';
import { queryKeys } from '../../src/api/query-keys';
import { updateNotificationGroup } from '../../src/api/notification-groups';
import { defineCommand } from '../define-command';
import { summary } from './create-group';
import { groupFieldArgs, groupFieldError, groupFieldsShape } from './group-fields';
import { resolveGroup } from './resolve-group';

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((e, i) => e === b[i]);

export const editGroup = defineCommand({
  id: 'group.edit',
  title: 'Edit notification group',
  category: 'Notification Groups',
  description: 'Change a group’s name, description, email list (replaced as a whole) or Slack settings; with no changes given, open its Update drawer.',
  input: z
    .object({
      group: z.string().trim().min(1, 'group is required'),
      name: groupFieldsShape.name.optional(),
      description: groupFieldsShape.description.optional(),
      emails: groupFieldsShape.emails.optional(),
      emailEnabled: groupFieldsShape.emailEnabled.optional(),
      slackEnabled: groupFieldsShape.slackEnabled.optional(),
      // Empty clears the channel (allowed only with Slack off; the server checks the result).
      slackChannel: groupFieldsShape.slackChannel.optional(),
    })
    .strict(),
  args: [
    { name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true },
    { ...groupFieldArgs.name, optional: true },
    groupFieldArgs.description,
    groupFieldArgs.emails,
    groupFieldArgs.emailEnabled,
    groupFieldArgs.slackEnabled,
    groupFieldArgs.slackChannel,
  ],
  permission: 'groups.write',
  // Undo sets back the fields this run changed.
  inverse: (_input, result) => {
    const before = result.before as NotificationGroup | undefined;
    const after = result.data as NotificationGroup | undefined;
    if (!before || !after) return null;
    const back: Record<string, unknown> = {};
    if (before.name !== after.name) back.name = before.name;
    if (before.description !== after.description) back.description = before.description;
    if (!sameList(before.emailList, after.emailList)) back.emails = before.emailList.length ? before.emailList.join(', ') : [];
    if (before.emailEnabled !== after.emailEnabled) back.emailEnabled = before.emailEnabled;
    if (before.slackEnabled !== after.slackEnabled) back.slackEnabled = before.slackEnabled;
    if (before.slackChannel !== after.slackChannel) back.slackChannel = before.slackChannel ?? '';
    return Object.keys(back).length ? { id: 'group.edit', input: { group: before._id, ...back } } : null;
  },
  async run({ group, ...fields }, ctx) {
    const found = await resolveGroup(ctx.api, group);
    if (Object.values(fields).every((v) => v === undefined)) {
      ctx.navigate(`/notification-groups/edit/${found._id}`);
      return { message: `Editing **${found.name}**.`, data: found };
    }
    // Only what differs is sent: an unchanged name must not trip the "name taken" check.
    const changes: UpdateNotificationGroup = {};
    if (fields.name !== undefined && fields.name !== found.name) changes.name = fields.name;
    if (fields.description !== undefined && fields.description !== found.description) changes.description = fields.description;
    if (fields.emails !== undefined) {
      const list = uniqueEmails(fields.emails);
      if (!sameList(list, found.emailList)) changes.emailList = list;
    }
    if (fields.emailEnabled !== undefined && fields.emailEnabled !== found.emailEnabled) changes.emailEnabled = fields.emailEnabled;
    if (fields.slackEnabled !== undefined && fields.slackEnabled !== found.slackEnabled) changes.slackEnabled = fields.slackEnabled;
    if (fields.slackChannel !== undefined && (fields.slackChannel || null) !== found.slackChannel) changes.slackChannel = fields.slackChannel || null;
    if (!Object.keys(changes).length) return { message: `**${found.name}** already has these settings.`, data: found };
    const { result } = await updateNotificationGroup(ctx.api, found._id, changes).catch((err: unknown) => {
      throw groupFieldError(err);
    });
    await ctx.invalidate(queryKeys.notificationGroups.all);
    return { message: `Updated notification group **${result.name}** (${summary(result)}).`, data: result, before: found };
  },
});
