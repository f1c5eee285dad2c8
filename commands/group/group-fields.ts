import { z } from 'zod';
import { notificationGroupNameMessage, slackChannelMessage } from '../../server/contract/alerts';
import { MAX_TEXT } from '../../server/contract/common';
import { ApiError } from '../../src/api/client';
import { EMAIL_PATTERN, invalidEmailMessage, splitEmails } from '../../src/lib/email-list';
import type { ArgSpec } from '../define-command';
import { CommandError } from '../registry';

/**
 * The fields of a notification group as commands take them. The screen passes `emails` as an
 * array; the command line and palette as one text ("a@x.io, b@x.io"), since a flag given twice
 * keeps only its last value.
 */
export const emailsSchema = z
  .union([z.array(z.string().trim()), z.string()], { error: 'emails must be a list of email addresses' })
  .transform((v) => (Array.isArray(v) ? v.filter(Boolean) : splitEmails(v)))
  .superRefine((list, ctx) => {
    const bad = list.filter((e) => !EMAIL_PATTERN.test(e));
    if (bad.length) ctx.addIssue({ code: 'custom', message: invalidEmailMessage(bad) });
  });

export const groupFieldsShape = {
  name: z.string({ error: notificationGroupNameMessage }).trim().min(1, notificationGroupNameMessage).max(200, 'The name is too long (at most 200 characters)'),
  description: z.string().trim().max(MAX_TEXT, `description is too long (at most ${MAX_TEXT} characters)`),
  emailEnabled: z.boolean({ error: 'emailEnabled must be true or false' }),
  emails: emailsSchema,
  slackEnabled: z.boolean({ error: 'slackEnabled must be true or false' }),
  slackChannel: z.string().trim().max(80, 'A Slack channel has at most 80 characters'),
};
export type GroupField = keyof typeof groupFieldsShape;

export const groupFieldArgs = {
  name: { name: 'name', label: 'Name', kind: 'text', placeholder: 'Group name, e.g. On-call' },
  description: { name: 'description', label: 'Description', kind: 'text', optional: true },
  emailEnabled: { name: 'emailEnabled', label: 'Email Enabled', kind: 'boolean', optional: true },
  emails: { name: 'emails', label: 'Email List', kind: 'text', optional: true, placeholder: 'Email addresses, separated by commas' },
  slackEnabled: { name: 'slackEnabled', label: 'Slack Enabled', kind: 'boolean', optional: true },
  slackChannel: { name: 'slackChannel', label: 'Slack Channel', kind: 'text', optional: true, placeholder: 'Slack channel, e.g. #ops' },
} as const satisfies Record<GroupField, ArgSpec>;

export { slackChannelMessage };

/** A refusal that names the offending field, so the drawer can show it next to the input. */
export class GroupFieldError extends CommandError {
  constructor(
    message: string,
    readonly field: GroupField | undefined,
  ) {
    super(message, 'error');
    this.name = 'GroupFieldError';
  }
}

const apiFieldToArg = (field: string): GroupField | undefined =>
  field === 'emailList' || field.startsWith('emailList.') ? 'emails' : (['name', 'description', 'slackChannel'] as const).find((f) => f === field);

/** The server's `{ field, message }` (400 or 409) as a GroupFieldError; other errors pass unchanged. */
export function groupFieldError(err: unknown): unknown {
  if (!(err instanceof ApiError) || !err.field) return err;
  const field = apiFieldToArg(err.field);
  if (!field) return err;
  const message = err.message.startsWith(`${err.field}: `) ? err.message.slice(err.field.length + 2) : err.message;
  return new GroupFieldError(message, field);
}
