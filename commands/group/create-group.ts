import { z } from 'zod';
import { slackRule, uniqueEmails } from '../../server/contract/alerts';
import { queryKeys } from '../../src/api/query-keys';
import { createNotificationGroup } from '../../src/api/notification-groups';
import { defineCommand } from '../define-command';
import { groupFieldArgs, groupFieldError, groupFieldsShape, slackChannelMessage } from './group-fields';

export const createGroup = defineCommand({
  id: 'group.create',
  title: 'Create notification group',
  category: 'Notification Groups',
  description: 'Add a group that alert rules can notify by email (on by default) and Slack (off unless a channel is given).',
  input: z
    .object({
      name: groupFieldsShape.name,
      description: groupFieldsShape.description.optional(),
      emails: groupFieldsShape.emails.optional(),
      emailEnabled: groupFieldsShape.emailEnabled.optional(),
      slackEnabled: groupFieldsShape.slackEnabled.optional(),
      slackChannel: groupFieldsShape.slackChannel.optional(),
    })
    .strict()
    .refine(slackRule, { message: slackChannelMessage, path: ['slackChannel'] }),
  args: [groupFieldArgs.name, groupFieldArgs.description, groupFieldArgs.emails, groupFieldArgs.emailEnabled, groupFieldArgs.slackEnabled, groupFieldArgs.slackChannel],
  permission: 'groups.write',
  inverse: (_input, result) => {
    const id = (result.data as { _id?: string } | undefined)?._id;
    return id ? { id: 'group.delete', input: { group: id } } : null;
  },
  async run(input, ctx) {
    const { result } = await createNotificationGroup(ctx.api, toBody(input)).catch((err: unknown) => {
      throw groupFieldError(err);
    });
    await ctx.invalidate(queryKeys.notificationGroups.all);
    return { message: `Created notification group **${result.name}** (${summary(result)}).`, data: result };
  },
});

export function toBody(input: { name: string; description?: string; emails?: string[]; emailEnabled?: boolean; slackEnabled?: boolean; slackChannel?: string }) {
  // SPEC §5 defaults: email on, Slack off.
  const slackEnabled = input.slackEnabled ?? false;
  return {
    name: input.name,
    description: input.description ?? '',
    emailEnabled: input.emailEnabled ?? true,
    emailList: uniqueEmails(input.emails ?? []),
    slackEnabled,
    slackChannel: input.slackChannel?.trim() || null,
  };
}

/** "2 emails, Slack #ops" for messages. */
export function summary(g: { emailEnabled: boolean; emailList: string[]; slackEnabled: boolean; slackChannel: string | null }): string {
  const email = `${g.emailList.length} email${g.emailList.length === 1 ? '' : 's'}${g.emailEnabled ? '' : ' (email off)'}`;
  return g.slackEnabled ? `${email}, Slack ${g.slackChannel}` : `${email}, Slack off`;
}
