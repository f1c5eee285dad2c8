import { z } from 'zod';
import { MAX_TEXT, str } from './common';

/**
 * Issue 14 alert routing: matchers, silences and maintenance windows, and how an alert says it
 * notifies nobody (`mute`). Shared with the web app and the commands. docs/alerting.md "Routing".
 */

// ---------------------------------------------------------------------------------------------
// Matchers (Alertmanager's model: name, operator, value; regexes are RE2, anchored at both ends)

/** What a matcher may look at: the alert's own fields, or one of its server's labels (`label.<key>`). */
export const matcherFields = ['hostname', 'alertname', 'type', 'severity', 'service', 'mountpoint'] as const;
export type MatcherField = (typeof matcherFields)[number];
/** Server label keys: Prometheus's label-name alphabet, plus dots and dashes people use in tags. */
export const LABEL_KEY = /^[A-Za-z_][A-Za-z0-9_.-]{0,62}$/;
export const matcherOps = ['=', '!=', '=~', '!~'] as const;
export type MatcherOp = (typeof matcherOps)[number];
export const matcherOpLabels: Record<MatcherOp, string> = { '=': 'equals', '!=': 'does not equal', '=~': 'matches regex', '!~': 'does not match regex' };
/**
 * Regexes are compiled with RE2 (re2js: linear time, no backtracking, Alertmanager's syntax), and
 * capped in length so that compiling them stays cheap too (docs/decisions.md).
 */
export const MAX_REGEX = 256;
export const MAX_MATCHERS = 10;

const matcherNameSchema = str({ error: 'name must be text' })
  .trim()
  .refine((n) => (matcherFields as readonly string[]).includes(n) || (n.startsWith('label.') && LABEL_KEY.test(n.slice(6))), {
    message: `name must be one of ${matcherFields.join(', ')} or label.<key>`,
  });

export const matcherSchema = z
  .object({
    name: matcherNameSchema,
    op: z.enum(matcherOps, { error: `op must be one of ${matcherOps.join(' ')}` }),
    value: str({ error: 'value must be text' }).max(MAX_TEXT, `value is too long (at most ${MAX_TEXT} characters)`),
  })
  .strict()
  .refine((m) => !m.op.includes('~') || m.value.length <= MAX_REGEX, { message: `A regex has at most ${MAX_REGEX} characters`, path: ['value'] });
export type Matcher = z.infer<typeof matcherSchema>;

/** "hostname=~web-.*" — the matcher as the command line and Alertmanager write it. */
export const matcherText = (m: Matcher) => `${m.name}${m.op}${/[\s"]/.test(m.value) || m.value === '' ? JSON.stringify(m.value) : m.value}`;

/**
 * Reads "hostname=~web-.*", 'service!="nginx"', "label.env=prod": the longest operator that fits
 * after a name. Undefined when it is not a matcher.
 */
export function parseMatcher(text: string): Matcher | undefined {
  const m = /^\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*(=~|!~|!=|=)\s*(.*?)\s*$/s.exec(text);
  if (!m) return undefined;
  let value = m[3]!;
  if (/^".*"$/s.test(value)) {
    try {
      value = JSON.parse(value) as string;
    } catch {
      return undefined;
    }
  }
  return { name: m[1]!, op: m[2] as MatcherOp, value };
}

// ---------------------------------------------------------------------------------------------
// Mute: why an open alert notifies nobody right now

/** Extension states of an alert's notifications (docs/decisions.md), never a status. */
export const muteReasons = ['maintenance', 'silenced', 'host_down', 'flapping'] as const;
export type MuteReason = (typeof muteReasons)[number];
export const muteSchema = z.object({
  reason: z.enum(muteReasons),
  /** What a person reads: "Silenced by ann", "In maintenance: Sunday patching", "Suppressed: host down", "Flapping". */
  label: str(),
  /** The silence, the maintenance window or the instance_down alert behind it; null for flapping. */
  ref: str().nullable(),
});
export type Mute = z.infer<typeof muteSchema>;

// ---------------------------------------------------------------------------------------------
// Silences

export const silenceStates = ['pending', 'active', 'expired'] as const;
export type SilenceState = (typeof silenceStates)[number];
export const silenceStateLabels: Record<SilenceState, string> = { pending: 'Pending', active: 'Active', expired: 'Expired' };
/** A silence may last at most a year (Alertmanager has no limit; a forgotten silence is a hazard). */
export const MAX_SILENCE_SECONDS = 366 * 86_400;

export const silenceSchema = z.object({
  _id: str(),
  id: str(),
  matchers: z.array(matcherSchema),
  startsAt: str(),
  endsAt: str(),
  comment: str(),
  createdBy: z.object({ _id: str().nullable(), username: str() }),
  state: z.enum(silenceStates),
  createdAt: str(),
  updatedAt: str(),
});
export type Silence = z.infer<typeof silenceSchema>;

const isoTime = (field: string) =>
  str({ error: `${field} must be a date and time` })
    .trim()
    .max(64)
    .refine((v) => !Number.isNaN(Date.parse(v)), { message: `${field} must be an ISO 8601 date and time, like 2026-06-01T02:00:00Z` });

const silenceFields = {
  matchers: z.array(matcherSchema, { error: 'matchers must be a list' }).min(1, 'A silence needs at least one matcher').max(MAX_MATCHERS, `At most ${MAX_MATCHERS} matchers`),
  startsAt: isoTime('startsAt'),
  endsAt: isoTime('endsAt'),
  comment: str({ error: 'comment must be text' }).trim().min(1, 'Say why (comment is required)').max(MAX_TEXT, `comment is too long (at most ${MAX_TEXT} characters)`),
};

/** POST silences: matchers, an end (or a duration from the start), a comment; the start defaults to now. */
export const createSilenceSchema = z
  .object({
    matchers: silenceFields.matchers,
    startsAt: silenceFields.startsAt.optional(),
    endsAt: silenceFields.endsAt.optional(),
    durationSeconds: z.number({ error: 'durationSeconds must be a number' }).int('durationSeconds must be whole seconds').min(60, 'A silence lasts at least 60 seconds').max(MAX_SILENCE_SECONDS, 'A silence lasts at most a year').optional(),
    comment: silenceFields.comment,
  })
  .strict()
  .refine((v) => v.endsAt !== undefined || v.durationSeconds !== undefined, { message: 'Give endsAt or durationSeconds', path: ['endsAt'] })
  .refine((v) => v.endsAt === undefined || v.durationSeconds === undefined, { message: 'Give endsAt or durationSeconds, not both', path: ['durationSeconds'] });
export type CreateSilence = z.input<typeof createSilenceSchema>;

/** PATCH silences/{id}: any of the fields; an expired silence cannot be edited (create a new one). */
export const updateSilenceSchema = z
  .object({ matchers: silenceFields.matchers, startsAt: silenceFields.startsAt, endsAt: silenceFields.endsAt, comment: silenceFields.comment })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type UpdateSilence = z.input<typeof updateSilenceSchema>;

/** POST silences/preview: what these matchers silence now. */
export const silencePreviewRequestSchema = z.object({ matchers: silenceFields.matchers }).strict();
export type SilencePreviewRequest = z.input<typeof silencePreviewRequestSchema>;

const previewAlertSchema = z.object({ _id: str(), alertname: str(), hostname: str(), severity: str(), status: str(), service: str().nullable(), mountpoint: str().nullable() });
const previewServerSchema = z.object({ _id: str(), hostname: str(), ipaddress: str() });
export const matchPreviewSchema = z.object({
  /** Open alerts it matches now (the first 20) and how many in all. */
  alerts: z.array(previewAlertSchema),
  alertCount: z.number().int(),
  /** Servers whose alerts it can match: every server-level matcher (hostname, label.*) holds (the first 20). */
  servers: z.array(previewServerSchema),
  serverCount: z.number().int(),
  /** Set when nothing matches: say so before saving. */
  warning: str().nullable(),
});
export type MatchPreview = z.infer<typeof matchPreviewSchema>;

// ---------------------------------------------------------------------------------------------
// Server labels

export const MAX_LABELS = 20;
export const labelsSchema = z
  .record(
    str().refine((k) => LABEL_KEY.test(k), { message: 'A label key starts with a letter or _ and holds letters, digits, _ . - (at most 63)' }),
    str({ error: 'A label value must be text' }).trim().max(200, 'A label value has at most 200 characters'),
  )
  .refine((r) => Object.keys(r).length <= MAX_LABELS, { message: `At most ${MAX_LABELS} labels` });
export type Labels = z.infer<typeof labelsSchema>;

// ---------------------------------------------------------------------------------------------
// Maintenance windows

export const windowStates = ['scheduled', 'active', 'past'] as const;
export type WindowState = (typeof windowStates)[number];
export const windowStateLabels: Record<WindowState, string> = { scheduled: 'Scheduled', active: 'In progress', past: 'Past' };
export const MAX_WINDOW_SERVERS = 500;

export const maintenanceWindowSchema = z.object({
  _id: str(),
  id: str(),
  name: str(),
  comment: str(),
  /** Servers it covers by id; and/or `matchers` (either may be empty, not both). */
  serverIds: z.array(str()),
  matchers: z.array(matcherSchema),
  /** The first occurrence; recurring windows repeat it by `rrule` at the same wall-clock time in `timezone`. */
  startsAt: str(),
  endsAt: str(),
  timezone: str(),
  /** RFC 5545 RRULE ("FREQ=WEEKLY;BYDAY=SU"); null: one-off. */
  rrule: str().nullable(),
  createdBy: z.object({ _id: str().nullable(), username: str() }),
  /** In force now, coming, or over for good. */
  state: z.enum(windowStates),
  /** The occurrence in force now or the next one; null when none is left. */
  next: z.object({ start: str(), end: str() }).nullable(),
  createdAt: str(),
  updatedAt: str(),
  /** On create and update: how many past alerts it marked as planned downtime (retroactive windows). */
  marked: z.number().int().optional(),
});
export type MaintenanceWindow = z.infer<typeof maintenanceWindowSchema>;

const windowFields = {
  name: str({ error: 'name is required' }).trim().min(1, 'name is required').max(200, 'The name is too long (at most 200 characters)'),
  comment: str({ error: 'comment must be text' }).trim().max(MAX_TEXT, `comment is too long (at most ${MAX_TEXT} characters)`),
  serverIds: z.array(str().max(64), { error: 'serverIds must be a list' }).max(MAX_WINDOW_SERVERS, `At most ${MAX_WINDOW_SERVERS} servers`),
  matchers: z.array(matcherSchema, { error: 'matchers must be a list' }).max(MAX_MATCHERS, `At most ${MAX_MATCHERS} matchers`),
  startsAt: isoTime('startsAt'),
  endsAt: isoTime('endsAt'),
  timezone: str({ error: 'timezone must be text' }).trim().min(1, 'timezone is required').max(64),
  rrule: str({ error: 'rrule must be text' }).trim().max(500, 'rrule is too long').nullable(),
};
const coversSomething = (v: { serverIds?: string[]; matchers?: unknown[] }) => (v.serverIds?.length ?? 0) + (v.matchers?.length ?? 0) > 0;

/** POST maintenance-windows. */
export const createWindowSchema = z
  .object({
    name: windowFields.name,
    comment: windowFields.comment.default(''),
    serverIds: windowFields.serverIds.default([]),
    matchers: windowFields.matchers.default([]),
    startsAt: windowFields.startsAt,
    endsAt: windowFields.endsAt,
    timezone: windowFields.timezone.default('UTC'),
    rrule: windowFields.rrule.default(null),
  })
  .strict()
  .refine(coversSomething, { message: 'A window covers servers (serverIds) or alerts matching matchers', path: ['serverIds'] });
export type CreateWindow = z.input<typeof createWindowSchema>;

/** PATCH maintenance-windows/{id}: any field; the result must still cover something. */
export const updateWindowSchema = z
  .object(windowFields)
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type UpdateWindow = z.input<typeof updateWindowSchema>;

export const windowPreviewRequestSchema = z
  .object({ serverIds: windowFields.serverIds.default([]), matchers: windowFields.matchers.default([]) })
  .strict()
  .refine(coversSomething, { message: 'A window covers servers (serverIds) or alerts matching matchers', path: ['serverIds'] });

/** GET maintenance-windows/occurrences?from&to: what the calendar draws (at most 62 days). */
export const occurrenceSchema = z.object({ windowId: str(), name: str(), start: str(), end: str() });
export type WindowOccurrence = z.infer<typeof occurrenceSchema>;
export const MAX_CALENDAR_DAYS = 62;

const CALENDAR_TIME = 'give an ISO 8601 time or unix milliseconds';
/** One end of the calendar's range: an ISO 8601 time or unix milliseconds. */
const calendarTime = str({ error: CALENDAR_TIME }).transform((v, ctx) => {
  const d = new Date(/^\d+$/.test(v) ? Number(v) : v);
  if (Number.isNaN(d.getTime())) ctx.addIssue({ code: 'custom', message: CALENDAR_TIME });
  return d;
});
/** Issue 14 §3 `GET maintenance-windows/occurrences?from=…&to=…`: a range of at most 62 days. */
export const occurrencesQuerySchema = z
  .strictObject({ from: calendarTime, to: calendarTime })
  .superRefine(({ from, to }, ctx) => {
    if (to <= from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    else if (to.getTime() - from.getTime() > MAX_CALENDAR_DAYS * 86_400_000) ctx.addIssue({ code: 'custom', path: ['to'], message: `at most ${MAX_CALENDAR_DAYS} days after from` });
  });
