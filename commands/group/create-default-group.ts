import { z } from 'zod';
import { slackRule } from '../../server/contract/alerts';
import { setDefaultGroup } from '../../src/api/alert-reach';
import { createNotificationGroup } from '../../src/api/notification-groups';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { summary, toBody } from './create-group';
import { groupFieldArgs, groupFieldError, groupFieldsShape, slackChannelMessage } from './group-fields';
import { assignedPhrase } from './set-default-group';

/**
 * The dashboard's one step when alerts notify nobody and no group exists (issue 24 §6): a group
 * created and made the default in one run, so every rule without a group, and every new one,
 * notifies it. `group.create` followed by `group.set-default`, as one command.
 */
export const createDefaultGroup = defineCommand({
  id: 'group.create-default',
  title: 'Create a default notification group',
  category: 'Notification Groups',
  description: 'Add a notification group and make it the default: new alert rules notify it, and so does every rule that notifies nobody now.',
  input: z
    .object({
      name: groupFieldsShape.name,
      emails: groupFieldsShape.emails.optional(),
      description: groupFieldsShape.description.optional(),
      slackEnabled: groupFieldsShape.slackEnabled.optional(),
      slackChannel: groupFieldsShape.slackChannel.optional(),
    })
    .strict()
    .refine(slackRule, { message: slackChannelMessage, path: ['slackChannel'] }),
  args: [groupFieldArgs.name, groupFieldArgs.emails, groupFieldArgs.description, groupFieldArgs.slackEnabled, groupFieldArgs.slackChannel],
  permission: 'rules.write',
  async run(input, ctx) {
    const { result } = await createNotificationGroup(ctx.api, toBody(input)).catch((err: unknown) => {
      throw groupFieldError(err);
    });
    const made = await setDefaultGroup(ctx.api, result._id);
    await Promise.all([ctx.invalidate(queryKeys.notificationGroups.all), ctx.invalidate(queryKeys.alertConfig.all), ctx.invalidate(queryKeys.checks.all)]);
    return { message: `Created notification group **${result.name}** (${summary(result)}), the default group: new alert rules notify it${assignedPhrase(made.result.assigned)}.`, data: result };
  },
});
