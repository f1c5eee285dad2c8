import { z } from 'zod';
import { MAX_TEXT, str } from './common';
import { muteSchema } from './routing';

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
export const alertTypes = ['resouce_alert', 'service_down_alert', 'website_alert', 'monitoring_alert', 'alertmanager_alert'] as const;
export type AlertType = (typeof alertTypes)[number];
/**
 * Issue 15 §3: alerts received from Alertmanager (a team's Prometheus rules) have this type and
 * source 'alertmanager'; every other alert is Opsdeck's own (source 'opsdeck').
 */
export const ALERTMANAGER_ALERT_TYPE = 'alertmanager_alert';
export const alertSources = ['opsdeck', 'alertmanager'] as const;
export type AlertSource = (typeof alertSources)[number];
/** Alerts about Opsdeck's own monitoring ("Monitoring backend unreachable", issue 12): no server. */
export const MONITORING_ALERT_TYPE = 'monitoring_alert';
export function alertTypeLabel(type: string): string {
  return type === 'resouce_alert'
    ? 'Resource Alert'
    : type === 'service_down_alert'
      ? 'Service Down Alert'
      : type === 'website_alert'
        ? 'Website Alert'
        : type === MONITORING_ALERT_TYPE
          ? 'Monitoring Alert'
          : type === ALERTMANAGER_ALERT_TYPE
            ? 'Alertmanager Alert'
            : 'Unknown';
}

/**
 * SPEC §4 timeline event types. A note without a status change is a playbook_action. Extension
 * (issue 14, docs/decisions.md): `acknowledged` and `unacknowledged` record who took an alert on
 * and who let it go (or that the acknowledgement ran out); the status does not change.
 */
export const timelineEventTypes = ['firing', 'resolved', 'playbook_action', 'snoozed', 'acknowledged', 'unacknowledged'] as const;
export type TimelineEventType = (typeof timelineEventTypes)[number];

/**
 * What the delivery outbox carries: SPEC's firing and resolved notifications, and (issue 14)
 * `acknowledged`, which email and Slack do not send but channels with an incident state of their
 * own (PagerDuty, issue 15) act on; `repeat` while firing and unacknowledged, `escalation` (a step
 * of the group's policy), `reminder` (to the owner of an old acknowledgement) and `flapping`
 * (the one message of a flapping alert).
 */
export const outboxTransitions = ['firing', 'resolved', 'acknowledged', 'repeat', 'escalation', 'reminder', 'flapping'] as const;
export type OutboxTransition = (typeof outboxTransitions)[number];

export const timelineEventSchema = z.object({
  _id: str(),
  type: z.enum(timelineEventTypes),
  timestamp: str(),
  /** Markdown; the operator's note, or the evaluator's reason ("Condition cleared"). */
  note: str().nullable(),
  /** Who did it; null when the evaluator did. */
  by: z.object({ _id: str().nullable(), username: str() }).nullable(),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;

/** Issue 14: who took an open alert on ("I'm on it"), with their note, and until when (null: until it resolves). */
export const acknowledgementSchema = z.object({
  by: z.object({ _id: str().nullable(), username: str() }),
  note: str().nullable(),
  at: str(),
  until: str().nullable(),
});
export type Acknowledgement = z.infer<typeof acknowledgementSchema>;

export const alertSchema = z.object({
  _id: str(),
  id: str(),
  /** The server the alert is about; null for a check's website_alert and for alerts about Opsdeck itself (type monitoring_alert). */
  serverId: str().nullable(),
  /** The check a website_alert is about (issue 16); null otherwise. */
  checkId: str().nullable(),
  ruleId: str().nullable(),
  /** The server's hostname, or the check's name. */
  hostname: str(),
  /** The server's IP address (SPEC: instance, also ipaddress). */
  instance: str(),
  ipaddress: str(),
  alertname: str(),
  /** Markdown in which only our emphasis is markup: a host's text is escaped (contract/alert-text.ts). */
  description: str(),
  type: str(),
  severity: severitySchema,
  status: alertStatusSchema,
  /** Plain text (it may hold a host's service name): shown as text. */
  summary: str(),
  mountpoint: str().nullable(),
  volume: str().nullable(),
  service: str().nullable(),
  /** The figure that crossed the threshold when the alert opened (percent), null for down alerts. */
  value: z.number().nullable(),
  /** When it fired (SPEC 'Triggered At'). */
  createdAt: str(),
  updatedAt: str(),
  resolvedAt: str().nullable(),
  /** A snooze with a duration returns the alert to firing at this time; null: until it resolves. */
  snoozedUntil: str().nullable(),
  /** Issue 14: set while someone has acknowledged the alert; its status stays firing (or snoozed). */
  acknowledgement: acknowledgementSchema.nullable(),
  /** Issue 14: why this open alert notifies nobody now (a silence, a maintenance window, its host being down, flapping); null: it notifies. */
  mute: muteSchema.nullable(),
  /** When its firing notification was queued; null while muted or not sent (yet). */
  notifiedAt: str().nullable(),
  /** Issue 15: 'alertmanager' for an alert received from Alertmanager, else 'opsdeck'. */
  source: z.enum(alertSources),
  /** Alertmanager's labels of a received alert (host-controlled text: shown as text); null for Opsdeck's own. */
  labels: z.record(str(), str()).nullable(),
  /** Where a received alert came from (Prometheus' expression page); null for Opsdeck's own. */
  generatorURL: str().nullable(),
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
    log: str({ error: 'Add Notes' }).trim().min(1, 'Add Notes').max(MAX_NOTE, `The note is too long (at most ${MAX_NOTE} characters)`),
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

/** An acknowledgement lasts at most as long as a snooze. */
export const MAX_ACK_SECONDS = MAX_SNOOZE_SECONDS;

/**
 * Issue 14 `POST alerts/{id}/ack`: an optional note and, optionally, how long the acknowledgement
 * lasts (`forSeconds`); without it, until the alert resolves.
 */
export const ackAlertSchema = z
  .object({
    note: str({ error: 'note must be text' }).trim().max(MAX_NOTE, `The note is too long (at most ${MAX_NOTE} characters)`).optional(),
    forSeconds: z
      .number({ error: 'forSeconds must be a number of seconds' })
      .int('forSeconds must be a whole number of seconds')
      .min(60, 'An acknowledgement lasts at least 60 seconds')
      .max(MAX_ACK_SECONDS, 'An acknowledgement lasts at most 30 days')
      .optional(),
  })
  .strict();
export type AckAlert = z.input<typeof ackAlertSchema>;

/** Issue 14 `POST alerts/{id}/unack`: an optional note. */
export const unackAlertSchema = z
  .object({ note: str({ error: 'note must be text' }).trim().max(MAX_NOTE, `The note is too long (at most ${MAX_NOTE} characters)`).optional() })
  .strict();
export type UnackAlert = z.input<typeof unackAlertSchema>;

/**
 * Extension sort key of the alerts list (issue 24 §2), `{ by: 'firing', direction: 'desc' }`:
 * firing alerts first, then snoozed and resolved ones, each newest first (createdAt desc), paged
 * straight across. Descending only. SPEC's own `createdAt` desc is unchanged.
 */
export const FIRING_SORT = 'firing' as const;
export const alertSortable = ['createdAt', 'updatedAt', 'severity', 'status', 'hostname', 'alertname', FIRING_SORT] as const;
export const alertFilterable = {
  serverId: ['eq', 'in'],
  checkId: ['eq', 'in'],
  status: ['eq', 'in'],
  hostname: ['contains', 'eq'],
  createdAt: ['between'],
  severity: ['eq', 'in'],
  alertname: ['contains', 'eq', 'in'],
  type: ['eq', 'in'],
  instance: ['contains', 'eq'],
  acknowledged: ['eq'],
} as const;

// ---------------------------------------------------------------------------------------------
// Alert config (rules)

/** A routing duration (issue 14): whole seconds, 1 minute to 7 days. */
function policySeconds(field: string) {
  return z
    .number({ error: `${field} must be a number of seconds` })
    .int(`${field} must be whole seconds`)
    .min(60, `${field} is at least 60 seconds`)
    .max(7 * 86_400, `${field} is at most 7 days`);
}

/** SPEC §5 rule choices. */
export const thresholdChoices = [99, 95, 90, 85, 80, 70, 60] as const;
export const gracePeriodChoices = [60, 120, 180, 240, 300] as const;

/** What a rule watches; fixed per rule (the evaluator's switch), shown read-only. */
export const ruleMetrics = ['cpu', 'memory', 'disk', 'instance_down', 'service_down', 'disk_forecast', 'memory_forecast'] as const;
export type RuleMetric = (typeof ruleMetrics)[number];
/** Metrics compared with a threshold; the others have threshold null. */
export const thresholdMetrics: readonly RuleMetric[] = ['cpu', 'memory', 'disk', 'disk_forecast', 'memory_forecast'];
/** Forecast rules (issue 16): "full within N hours"; their threshold is N, in hours. */
export const forecastMetrics: readonly RuleMetric[] = ['disk_forecast', 'memory_forecast'];
export const forecastHourChoices = [1, 2, 4, 6, 12, 24, 48, 72] as const;

/** The threshold choices of a rule's metric: percents (SPEC §5), or hours for forecasts. */
export function thresholdChoicesFor(metric: RuleMetric): readonly number[] {
  return forecastMetrics.includes(metric) ? forecastHourChoices : thresholdChoices;
}
/** "90 %", or "24 h" for a forecast rule. */
export function formatThreshold(metric: RuleMetric, threshold: number): string {
  return forecastMetrics.includes(metric) ? `${threshold} h` : `${threshold} %`;
}

const thresholdMessage = `threshold must be one of ${thresholdChoices.join(', ')} percent (forecast rules: ${forecastHourChoices.join(', ')} hours)`;
const thresholdSchema = z.number({ error: thresholdMessage }).refine((n) => ([...thresholdChoices, ...forecastHourChoices] as readonly number[]).includes(n), thresholdMessage);
const timeLimitMessage = `timeLimit must be one of ${gracePeriodChoices.join(', ')} seconds (1 to 5 minutes)`;
const timeLimitSchema = z.number({ error: timeLimitMessage }).refine((n) => (gracePeriodChoices as readonly number[]).includes(n), timeLimitMessage);

export const alertRuleSchema = z.object({
  _id: str(),
  /** snake_case; the screen shows underscores as spaces. */
  name: str(),
  description: str(),
  type: str(),
  metric: z.enum(ruleMetrics),
  enabled: z.boolean(),
  /** Grace period in seconds: the condition must hold this long before an alert opens. */
  timeLimit: z.number().int(),
  /** Percent; hours for forecast rules; null for instance down and service down. */
  threshold: z.number().nullable(),
  severity: severitySchema,
  notificationGroup: str().nullable(),
  /** Issue 14 §4: while the server's instance_down alert fires, this rule's alerts open muted (default on). */
  // Always sent by the API; optional so that objects of SPEC's shape still type-check.
  suppressOnHostDown: z.boolean().optional(),
  /** Issue 14 §5: at least this long between two firing notifications of one alert (rule and subject); null: no limit. */
  minNotifyIntervalSeconds: z.number().int().nullable().optional(),
  /** Issue 14 §5: flap detector, N transitions within M seconds (both null: off). */
  flapTransitions: z.number().int().nullable().optional(),
  flapWindowSeconds: z.number().int().nullable().optional(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

export const alertConfigSchema = z.object({
  _id: str(),
  serverId: str(),
  rules: z.array(alertRuleSchema),
  createdAt: str(),
  updatedAt: str(),
});
export type AlertConfig = z.infer<typeof alertConfigSchema>;

/**
 * One rule in PATCH alert-config/update-alert-config/{id}. The screen sends the whole config
 * back; name, type and metric are accepted as they are but may not change.
 */
export const updateAlertRuleSchema = z
  .object({
    _id: str({ error: 'is required' }).min(1).max(64),
    name: str().max(MAX_TEXT).optional(),
    type: str().max(MAX_TEXT).optional(),
    metric: z.enum(ruleMetrics).optional(),
    description: str().max(MAX_TEXT, `description is too long (at most ${MAX_TEXT} characters)`),
    enabled: z.boolean({ error: 'enabled must be true or false' }),
    timeLimit: timeLimitSchema,
    threshold: thresholdSchema.nullable(),
    severity: severitySchema,
    notificationGroup: str().max(64).nullable(),
    // Issue 14 §4, §5; absent: unchanged (screens of SPEC's shape still send the rest).
    suppressOnHostDown: z.boolean({ error: 'suppressOnHostDown must be true or false' }).optional(),
    minNotifyIntervalSeconds: policySeconds('minNotifyIntervalSeconds').nullable().optional(),
    flapTransitions: z.number({ error: 'flapTransitions must be a number' }).int('flapTransitions must be a whole number').min(2, 'flapTransitions is at least 2').max(100, 'flapTransitions is at most 100').nullable().optional(),
    flapWindowSeconds: policySeconds('flapWindowSeconds').nullable().optional(),
  })
  .strict()
  .refine((r) => (r.flapTransitions === undefined) === (r.flapWindowSeconds === undefined) && (r.flapTransitions === null) === (r.flapWindowSeconds === null), {
    message: 'flapTransitions and flapWindowSeconds go together (both set, or both null)',
    path: ['flapWindowSeconds'],
  });

export const updateAlertConfigSchema = z
  .object({
    _id: str().max(64).optional(),
    serverId: str().max(64).optional(),
    createdAt: str().max(64).optional(),
    updatedAt: str().max(64).optional(),
    rules: z.array(updateAlertRuleSchema).max(100),
  })
  .strict();
export type UpdateAlertConfig = z.input<typeof updateAlertConfigSchema>;

// ---------------------------------------------------------------------------------------------
// Notification groups

// ---------------------------------------------------------------------------------------------
// Escalation policy (issue 14 §6), per notification group

/**
 * One step: after this long unacknowledged, notify another group and/or named users (by email),
 * and page people (issue 27 §3) — whoever is on call then in each schedule, and named people —
 * each through their own notification rules.
 */
export const escalationStepSchema = z
  .object({
    afterSeconds: policySeconds('afterSeconds'),
    groupId: str().max(64).nullable().default(null),
    userIds: z.array(str().max(64)).max(20, 'At most 20 users per step').default([]),
    scheduleIds: z.array(str().max(64)).max(5, 'At most 5 schedules per step').default([]),
    pageUserIds: z.array(str().max(64)).max(20, 'At most 20 people paged per step').default([]),
  })
  .strict()
  .refine((s) => s.groupId !== null || s.userIds.length > 0 || s.scheduleIds.length > 0 || s.pageUserIds.length > 0, { message: 'A step notifies a group or at least one user, or pages a schedule or a person', path: ['groupId'] });
export type EscalationStep = z.output<typeof escalationStepSchema>;

export const MAX_EMAILS = 100;
export const notificationGroupNameMessage = 'Please enter notification group name';
export const slackChannelMessage = 'Please enter a Slack channel';

export const notificationGroupSchema = z.object({
  _id: str(),
  id: str(),
  name: str(),
  description: str(),
  emailEnabled: z.boolean(),
  emailList: z.array(str()),
  slackEnabled: z.boolean(),
  slackChannel: str().nullable(),
  createdAt: str(),
  updatedAt: str(),
  // Issue 14 §6, §1. Always sent by the API; optional so that objects of SPEC's shape still type-check.
  /** Ordered steps: after N seconds unacknowledged, notify another group and/or named users. */
  escalationSteps: z.array(z.object({ afterSeconds: z.number().int(), groupId: str().nullable(), userIds: z.array(str()), scheduleIds: z.array(str()).optional(), pageUserIds: z.array(str()).optional() })).optional(),
  /** Send again every N seconds while firing and unacknowledged; null: never. */
  repeatIntervalSeconds: z.number().int().nullable().optional(),
  /** Remind the owner of an acknowledgement older than N seconds (again every N); null: never. */
  ackReminderSeconds: z.number().int().nullable().optional(),
});
export type NotificationGroup = z.infer<typeof notificationGroupSchema>;

const emailEntry = str()
  .trim()
  .max(254, 'An email address has at most 254 characters')
  // SPEC leaves the format open; delivery needs at least "someone@somewhere".
  .regex(/^[^\s@]+@[^\s@]+$/, 'Enter an email address like name@example.com');

const groupFields = {
  name: str({ error: notificationGroupNameMessage }).trim().min(1, notificationGroupNameMessage).max(200, 'The name is too long (at most 200 characters)'),
  description: str().trim().max(MAX_TEXT, `description is too long (at most ${MAX_TEXT} characters)`),
  emailEnabled: z.boolean({ error: 'emailEnabled must be true or false' }),
  emailList: z.array(emailEntry).max(MAX_EMAILS, `At most ${MAX_EMAILS} email addresses`),
  slackEnabled: z.boolean({ error: 'slackEnabled must be true or false' }),
  slackChannel: str().trim().max(80, 'A Slack channel has at most 80 characters').nullable(),
  escalationSteps: z.array(escalationStepSchema, { error: 'escalationSteps must be a list' }).max(5, 'At most 5 escalation steps'),
  repeatIntervalSeconds: policySeconds('repeatIntervalSeconds').nullable(),
  ackReminderSeconds: policySeconds('ackReminderSeconds').nullable(),
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
    escalationSteps: groupFields.escalationSteps.default([]),
    repeatIntervalSeconds: groupFields.repeatIntervalSeconds.default(null),
    ackReminderSeconds: groupFields.ackReminderSeconds.default(null),
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
    escalationSteps: groupFields.escalationSteps,
    repeatIntervalSeconds: groupFields.repeatIntervalSeconds,
    ackReminderSeconds: groupFields.ackReminderSeconds,
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

