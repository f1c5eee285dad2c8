import { z } from 'zod';
import { MAX_TEXT } from './common';

/**
 * SPEC §3 Alert, Alert config and Notification group, §4 alert states, §5 validation and §7
 * alert, alert-config and notification-groups calls. Shared with the web app and the commands.
 */

// ---------------------------------------------------------------------------------------------
// Alerts

/** SPEC §4: firing is shown 'Active'. Open means firing or snoozed. */
export const alertStatuses = ['firing', 'resolved', 'snoozed'] as const;
export const alertStatusSchema = z.enum(alertStatuses, { error: 'Update Status' });
export type AlertStatus = z.infer<typeof alertStatusSchema>;
export const alertStatusLabels: Record<AlertStatus, string> = { firing: 'Active', resolved: 'Resolved', snoozed: 'Snoozed' };

export const severities = ['critical', 'warning', 'normal', 'info'] as const;
export const severitySchema = z.enum(severities, { error: `severity must be one of ${severities.join(', ')}` });
export type Severity = z.infer<typeof severitySchema>;

/** SPEC keeps the original spelling "resouce_alert"; it is a stored value, not a label. */
export const alertTypes = ['resouce_alert', 'service_down_alert', 'website_alert'] as const;
export type AlertType = (typeof alertTypes)[number];
export function alertTypeLabel(type: string): string {
  return type === 'resouce_alert' ? 'Resource Alert' : type === 'service_down_alert' ? 'Service Down Alert' : type === 'website_alert' ? 'Website Alert' : 'Unknown';
}

/** SPEC §4 timeline event types. A note without a status change is a playbook_action. */
export const timelineEventTypes = ['firing', 'resolved', 'playbook_action', 'snoozed'] as const;
export type TimelineEventType = (typeof timelineEventTypes)[number];

export const timelineEventSchema = z.object({
  _id: z.string(),
  type: z.enum(timelineEventTypes),
  timestamp: z.string(),
  /** Markdown; the operator's note, or the evaluator's reason ("Condition cleared"). */
  note: z.string().nullable(),
  /** Who did it; null when the evaluator did. */
  by: z.object({ _id: z.string().nullable(), username: z.string() }).nullable(),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;

export const alertSchema = z.object({
  _id: z.string(),
  id: z.string(),
  serverId: z.string(),
  ruleId: z.string().nullable(),
  hostname: z.string(),
  /** The server's IP address (SPEC: instance, also ipaddress). */
  instance: z.string(),
  ipaddress: z.string(),
  alertname: z.string(),
  /** Markdown. */
  description: z.string(),
  type: z.string(),
  severity: severitySchema,
  status: alertStatusSchema,
  /** Markdown. */
  summary: z.string(),
  mountpoint: z.string().nullable(),
  volume: z.string().nullable(),
  service: z.string().nullable(),
  /** The figure that crossed the threshold when the alert opened (percent), null for down alerts. */
  value: z.number().nullable(),
  /** When it fired (SPEC 'Triggered At'). */
  createdAt: z.string(),
  updatedAt: z.string(),
  resolvedAt: z.string().nullable(),
  /** A snooze with a duration returns the alert to firing at this time; null: until it resolves. */
  snoozedUntil: z.string().nullable(),
});
export type Alert = z.infer<typeof alertSchema>;

/** GET alerts/{id} and the update's answer carry the timeline, oldest first. */
export const alertDetailSchema = alertSchema.extend({ timeline: z.array(timelineEventSchema) });
export type AlertDetail = z.infer<typeof alertDetailSchema>;

/** Longest note an operator may write (markdown). */
export const MAX_NOTE = 5000;
/** A snooze may last at most 30 days. */
export const MAX_SNOOZE_SECONDS = 30 * 86_400;

/**
 * SPEC §5 alert action form and §7 "update alert (id) with status and log": status required
 * ('Update Status'), notes required ('Add Notes'). Extension: `snoozeSeconds` with status snoozed
 * returns the alert to firing after that long if it has not resolved.
 */
export const updateAlertSchema = z
  .object({
    status: alertStatusSchema,
    log: z.string({ error: 'Add Notes' }).trim().min(1, 'Add Notes').max(MAX_NOTE, `The note is too long (at most ${MAX_NOTE} characters)`),
    snoozeSeconds: z
      .number({ error: 'snoozeSeconds must be a number of seconds' })
      .int('snoozeSeconds must be a whole number of seconds')
      .min(60, 'A snooze lasts at least 60 seconds')
      .max(MAX_SNOOZE_SECONDS, 'A snooze lasts at most 30 days')
      .optional(),
  })
  .strict()
  .refine((v) => v.snoozeSeconds === undefined || v.status === 'snoozed', { message: 'snoozeSeconds goes only with status snoozed', path: ['snoozeSeconds'] });
export type UpdateAlert = z.input<typeof updateAlertSchema>;

export const alertSortable = ['createdAt', 'updatedAt', 'severity', 'status', 'hostname', 'alertname'] as const;
export const alertFilterable = {
  serverId: ['eq', 'in'],
  status: ['eq', 'in'],
  hostname: ['contains', 'eq'],
  createdAt: ['between'],
  severity: ['eq', 'in'],
  alertname: ['contains', 'eq', 'in'],
  type: ['eq', 'in'],
  instance: ['contains', 'eq'],
} as const;

// ---------------------------------------------------------------------------------------------
// Alert config (rules)

/** SPEC §5 rule choices. */
export const thresholdChoices = [99, 95, 90, 85, 80, 70, 60] as const;
export const gracePeriodChoices = [60, 120, 180, 240, 300] as const;

/** What a rule watches; fixed per rule (the evaluator's switch), shown read-only. */
export const ruleMetrics = ['cpu', 'memory', 'disk', 'instance_down', 'service_down'] as const;
export type RuleMetric = (typeof ruleMetrics)[number];
/** Metrics compared with a threshold; the others have threshold null. */
export const thresholdMetrics: readonly RuleMetric[] = ['cpu', 'memory', 'disk'];

const thresholdMessage = `threshold must be one of ${thresholdChoices.join(', ')} percent`;
const thresholdSchema = z.number({ error: thresholdMessage }).refine((n) => (thresholdChoices as readonly number[]).includes(n), thresholdMessage);
const timeLimitMessage = `timeLimit must be one of ${gracePeriodChoices.join(', ')} seconds (1 to 5 minutes)`;
const timeLimitSchema = z.number({ error: timeLimitMessage }).refine((n) => (gracePeriodChoices as readonly number[]).includes(n), timeLimitMessage);

export const alertRuleSchema = z.object({
  _id: z.string(),
  /** snake_case; the screen shows underscores as spaces. */
  name: z.string(),
  description: z.string(),
  type: z.string(),
  metric: z.enum(ruleMetrics),
  enabled: z.boolean(),
  /** Grace period in seconds: the condition must hold this long before an alert opens. */
  timeLimit: z.number().int(),
  /** Percent; null for instance down and service down. */
  threshold: z.number().nullable(),
  severity: severitySchema,
  notificationGroup: z.string().nullable(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

export const alertConfigSchema = z.object({
  _id: z.string(),
  serverId: z.string(),
  rules: z.array(alertRuleSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlertConfig = z.infer<typeof alertConfigSchema>;

/**
 * One rule in PATCH alert-config/update-alert-config/{id}. The screen sends the whole config
 * back; name, type and metric are accepted as they are but may not change.
 */
export const updateAlertRuleSchema = z
  .object({
    _id: z.string({ error: 'is required' }).min(1).max(64),
    name: z.string().max(MAX_TEXT).optional(),
    type: z.string().max(MAX_TEXT).optional(),
    metric: z.enum(ruleMetrics).optional(),
    description: z.string().max(MAX_TEXT, `description is too long (at most ${MAX_TEXT} characters)`),
    enabled: z.boolean({ error: 'enabled must be true or false' }),
    timeLimit: timeLimitSchema,
    threshold: thresholdSchema.nullable(),
    severity: severitySchema,
    notificationGroup: z.string().max(64).nullable(),
  })
  .strict();

export const updateAlertConfigSchema = z
  .object({
    _id: z.string().max(64).optional(),
    serverId: z.string().max(64).optional(),
    createdAt: z.string().max(64).optional(),
    updatedAt: z.string().max(64).optional(),
    rules: z.array(updateAlertRuleSchema).max(100),
  })
  .strict();
export type UpdateAlertConfig = z.input<typeof updateAlertConfigSchema>;

// ---------------------------------------------------------------------------------------------
// Notification groups

export const MAX_EMAILS = 100;
export const notificationGroupNameMessage = 'Please enter notification group name';
export const slackChannelMessage = 'Please enter a Slack channel';

export const notificationGroupSchema = z.object({
  _id: z.string(),
  id: z.string(),
  name: z.string(),
  description: z.string(),
  emailEnabled: z.boolean(),
  emailList: z.array(z.string()),
  slackEnabled: z.boolean(),
  slackChannel: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type NotificationGroup = z.infer<typeof notificationGroupSchema>;

const emailEntry = z
  .string()
  .trim()
  .max(254, 'An email address has at most 254 characters')
  // SPEC leaves the format open; delivery needs at least "someone@somewhere".
  .regex(/^[^\s@]+@[^\s@]+$/, 'Enter an email address like name@example.com');

const groupFields = {
  name: z.string({ error: notificationGroupNameMessage }).trim().min(1, notificationGroupNameMessage).max(200, 'The name is too long (at most 200 characters)'),
  description: z.string().trim().max(MAX_TEXT, `description is too long (at most ${MAX_TEXT} characters)`),
  emailEnabled: z.boolean({ error: 'emailEnabled must be true or false' }),
  emailList: z.array(emailEntry).max(MAX_EMAILS, `At most ${MAX_EMAILS} email addresses`),
  slackEnabled: z.boolean({ error: 'slackEnabled must be true or false' }),
  slackChannel: z.string().trim().max(80, 'A Slack channel has at most 80 characters').nullable(),
};

export const slackRule = (v: { slackEnabled?: boolean; slackChannel?: string | null }) => !v.slackEnabled || !!v.slackChannel?.trim();

/** SPEC §5: name required; email on and Slack off by default; a channel only when Slack is on. */
export const createNotificationGroupSchema = z
  .object({
    name: groupFields.name,
    description: groupFields.description.default(''),
    emailEnabled: groupFields.emailEnabled.default(true),
    emailList: groupFields.emailList.default([]),
    slackEnabled: groupFields.slackEnabled.default(false),
    slackChannel: groupFields.slackChannel.optional(),
  })
  .strict()
  .refine(slackRule, { message: slackChannelMessage, path: ['slackChannel'] });
export type CreateNotificationGroup = z.input<typeof createNotificationGroupSchema>;

/** Partial; the server checks the Slack rule on the group as it would be after the update. */
export const updateNotificationGroupSchema = z
  .object({
    name: groupFields.name,
    description: groupFields.description,
    emailEnabled: groupFields.emailEnabled,
    emailList: groupFields.emailList,
    slackEnabled: groupFields.slackEnabled,
    slackChannel: groupFields.slackChannel,
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type UpdateNotificationGroup = z.input<typeof updateNotificationGroupSchema>;

/** Addresses kept once each (case-insensitively), in the order given. */
export function uniqueEmails(list: readonly string[]): string[] {
  const seen = new Set<string>();
  return list.filter((e) => {
    const k = e.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
