import { sql, type SQL } from 'drizzle-orm';
import { alertSources, outboxTransitions, timelineEventTypes, type EscalationStep } from '../contract/alerts';
import { muteReasons, type Matcher } from '../contract/routing';
import type { Layer as OnCallLayer } from '../oncall/model';
import { type AnyPgColumn, bigint, boolean, check, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * A text's 1- and 2-character substrings (migration 0024's opsdeck_short_grams, an immutable
 * PL/pgSQL function). GIN-indexed beside the trigram indexes: `contains` with one or two
 * characters is `grams @> array[needle]` (server/db/list-query.ts), which trigrams cannot answer.
 */
export const shortGrams = (text: AnyPgColumn | SQL) => sql`opsdeck_short_grams(${text})`;

/**
 * Exact row counts of the big lists' tables without counting them (migration 0024): statement
 * triggers on each table insert delta rows (+n on insert, -n on delete), so writers never wait on
 * each other here; the count is sum(n), folded into one row when the deltas pile up
 * (server/db/row-counts.ts).
 */
export const rowCounts = pgTable('row_counts', { tbl: text('tbl').notNull(), n: bigint('n', { mode: 'number' }).notNull() }, (t) => [index('row_counts_tbl_idx').on(t.tbl)]);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    phonenumber: text('phonenumber').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['admin', 'sysadmin', 'user'] }).notNull(),
    status: text('status', { enum: ['active', 'suspended'] }).notNull().default('active'),
    avatarUrl: text('avatar_url'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    // Lower-cased copies for case-insensitive contains: calling lower() on every row of a
    // 100k-row scan costs three times the scan itself in PGlite.
    usernameLc: text('username_lc').generatedAlwaysAs((): SQL => sql`lower(${users.username})`),
    emailLc: text('email_lc').generatedAlwaysAs((): SQL => sql`lower(${users.email})`),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    // Usernames name people in the audit trail: one per name, case-insensitively (migration 0018).
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    // Substring search (contains) at 100k rows needs trigram indexes, not btrees.
    index('users_username_lc_trgm_idx').using('gin', sql`${t.usernameLc} gin_trgm_ops`),
    index('users_email_lc_trgm_idx').using('gin', sql`${t.emailLc} gin_trgm_ops`),
    index('users_created_at_idx').on(t.createdAt),
    // One or two typed characters (migration 0024): trigrams cannot find them.
    index('users_username_lc_grams_idx').using('gin', shortGrams(t.usernameLc)),
    index('users_email_lc_grams_idx').using('gin', shortGrams(t.emailLc)),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    // SHA-256 of the cookie token: a leaked table does not hand out sessions.
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * The audit trail and incident log (issue 11 §2). Server records (`origin = 'server'`) are
 * written by the API in the same transaction as the change they describe (server/audit), or after
 * a refused or failed call with its outcome; client records (`origin = 'client'`) are what
 * browsers once reported for view-only runs that made no API write (none is written now). Append-only: a trigger refuses
 * UPDATE, DELETE and TRUNCATE except the retention prune (migration 0018, server/audit/retention.ts).
 * `user_id` has no foreign key on purpose: deleting a user must neither rewrite nor lose who did what.
 */
export const commandHistory = pgTable(
  'command_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    origin: text('origin', { enum: ['server', 'client'] }).notNull().default('client'),
    /** user (a session), token (a personal API token), agent (an agent install key), anonymous (a failed sign-in), system (Opsdeck itself). */
    actorKind: text('actor_kind', { enum: ['user', 'token', 'agent', 'anonymous', 'system'] }).notNull().default('user'),
    userId: uuid('user_id'),
    /** Who, as they were named at that moment (usernames are unique, case-insensitively). */
    username: text('username').notNull(),
    role: text('role'),
    /** The API key, agent key or personal token used, and its label (prefix or name). */
    actorKeyId: uuid('actor_key_id'),
    actorLabel: text('actor_label'),
    /** The command id the browser ran, or "METHOD /api/route" for a call made without one. */
    command: text('command').notNull(),
    /** The command line of the run as the browser sent it (re-runnable), when there was one. */
    commandLine: text('command_line'),
    /** Client records: the command's input. Server records: null (see request_body). */
    input: jsonb('input'),
    source: text('source').notNull(),
    outcome: text('outcome').notNull(),
    error: text('error'),
    /** The HTTP status of a refused or failed call; null for ok records. */
    status: integer('status'),
    durationMs: integer('duration_ms').notNull(),
    method: text('method'),
    /** The route pattern, e.g. "/api/servers/:id". */
    route: text('route'),
    /** What was touched, with its name at that moment: [{kind, id, name}]. */
    targets: jsonb('targets').notNull().default(sql`'[]'::jsonb`),
    targetIds: uuid('target_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** The request body, secrets replaced by "••••". */
    requestBody: jsonb('request_body'),
    requestId: text('request_id'),
    /** One command run may make several calls; they share the browser's run id. */
    runId: uuid('run_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * Set on a run that undid another (Ctrl+Z, the notice's Undo): the record it reversed, checked
     * when written. No foreign key, so retention may drop old records without touching later ones.
     */
    undoOf: uuid('undo_of'),
  },
  (t) => [
    index('command_history_created_at_idx').on(t.createdAt),
    index('command_history_command_idx').on(t.command),
    index('command_history_target_ids_idx').using('gin', t.targetIds),
    index('command_history_run_idx').on(t.runId),
    // The History panel's username and command filters (contains), typed (migration 0024).
    index('command_history_username_trgm_idx').using('gin', sql`lower(${t.username}) gin_trgm_ops`),
    index('command_history_username_grams_idx').using('gin', shortGrams(sql`lower(${t.username})`)),
    index('command_history_command_trgm_idx').using('gin', sql`lower(${t.command}) gin_trgm_ops`),
    index('command_history_command_grams_idx').using('gin', shortGrams(sql`lower(${t.command})`)),
  ],
);

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** SPEC §3 Server, with its latest usage figures kept on the row so lists need no join. */
export const servers = pgTable(
  'servers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    hostname: text('hostname').notNull(),
    ipaddress: text('ipaddress').notNull(),
    operatingSystem: text('operating_system', { enum: ['linux', 'windows'] }).notNull(),
    agentPort: integer('agent_port').notNull().default(9100),
    status: text('status', { enum: ['active', 'suspended', 'terminated'] }).notNull().default('active'),
    suppressAlarm: text('suppress_alarm', { enum: ['yes', 'no'] }).notNull().default('no'),
    isAgentConfigured: boolean('is_agent_configured').notNull().default(false),
    isAgentInstalled: boolean('is_agent_installed').notNull().default(false),
    /** Set for hosts of the built-in demo fleet, so a restart finds them again. */
    demoKey: text('demo_key'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    state: text('state').notNull().default('unknown'),
    stateChangedAt: at('state_changed_at'),
    lastScrapedAt: at('last_scraped_at'),
    /**
     * When the figures of the last verdict (up or down) were taken: a scrape's start, or the
     * sample time Prometheus reports. Older than two intervals (and the scrape timeout): the server
     * is `stale` (issue 12 "never blind"; monitoring/freshness-watch.ts).
     */
    observedAt: at('observed_at'),
    /** While `state` is `stale`: the state it had before (up or down), so coming back keeps state_changed_at. */
    staleFrom: text('stale_from'),
    lastError: text('last_error'),
    cpuUsage: doublePrecision('cpu_usage'),
    memoryUsage: doublePrecision('memory_usage'),
    diskUsage: doublePrecision('disk_usage'),
    networkUsage: doublePrecision('network_usage'),
    swapUsage: doublePrecision('swap_usage'),
    uptime: doublePrecision('uptime'),
    cpuLoad1: doublePrecision('cpu_load1'),
    cpuLoad5: doublePrecision('cpu_load5'),
    cpuLoad15: doublePrecision('cpu_load15'),
    cpuCores: doublePrecision('cpu_cores'),
    memorySaturation: doublePrecision('memory_saturation'),
    memoryTotal: doublePrecision('memory_total'),
    swapTotal: doublePrecision('swap_total'),
    /** Issue 14: key/value tags (env=prod, team=db) that silences and maintenance windows match on. */
    labels: jsonb('labels').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    hostnameLc: text('hostname_lc').generatedAlwaysAs((): SQL => sql`lower(${servers.hostname})`),
  },
  (t) => [
    index('servers_created_at_idx').on(t.createdAt),
    index('servers_hostname_lc_trgm_idx').using('gin', sql`${t.hostnameLc} gin_trgm_ops`),
    index('servers_hostname_lc_grams_idx').using('gin', shortGrams(t.hostnameLc)),
    // The list's search matches the address too (migration 0024).
    index('servers_ipaddress_trgm_idx').using('gin', sql`${t.ipaddress} gin_trgm_ops`),
    index('servers_ipaddress_grams_idx').using('gin', shortGrams(t.ipaddress)),
    // One registration per exporter: two rows scraping the same target would double every alert.
    uniqueIndex('servers_target_idx').on(t.ipaddress, t.agentPort),
    uniqueIndex('servers_demo_key_idx').on(t.demoKey),
  ],
);

/** SPEC §3 Service record: the latest state of each service an exporter reports. */
export const services = pgTable(
  'services',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    serviceName: text('service_name').notNull(),
    status: text('status').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    serviceNameLc: text('service_name_lc').generatedAlwaysAs((): SQL => sql`lower(${services.serviceName})`),
  },
  (t) => [
    uniqueIndex('services_server_name_idx').on(t.serverId, t.serviceName),
    index('services_status_idx').on(t.status),
    index('services_created_at_idx').on(t.createdAt),
    // Services List's name search (contains), typed (migration 0024).
    index('services_name_lc_trgm_idx').using('gin', sql`${t.serviceNameLc} gin_trgm_ops`),
    index('services_name_lc_grams_idx').using('gin', shortGrams(t.serviceNameLc)),
  ],
);

/**
 * The embedded metric store: per server, the names of its chart series (append-only, so an
 * index never changes meaning) and one row per scrape holding the values in that order.
 */
export const metricSeries = pgTable('metric_series', {
  serverId: uuid('server_id')
    .primaryKey()
    .references(() => servers.id, { onDelete: 'cascade' }),
  keys: text('keys').array().notNull(),
});

export const metricSamples = pgTable(
  'metric_samples',
  {
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    ts: at('ts').notNull(),
    values: real('values').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.ts] }), index('metric_samples_ts_idx').on(t.ts)],
);

/**
 * Five-minute averages of metric_samples (same layout per server), so long chart ranges read
 * 288 rows a day instead of 5,760 scattered ones. Written by MetricStore.rollup.
 */
export const metricRollups = pgTable(
  'metric_rollups',
  {
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    bucket: at('bucket').notNull(),
    values: real('values').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.bucket] }), index('metric_rollups_bucket_idx').on(t.bucket)],
);

/** Small facts the server remembers between starts (e.g. that the demo fleet was registered once). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------
// Alerting (issue 4): notification groups, per-server rules, alerts with their timeline, the
// evaluator's pending grace periods and the delivery outbox. docs/alerting.md.

/** SPEC §3 Notification group. */
export const notificationGroups = pgTable(
  'notification_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    emailEnabled: boolean('email_enabled').notNull().default(true),
    emailList: text('email_list').array().notNull().default(sql`'{}'::text[]`),
    slackEnabled: boolean('slack_enabled').notNull().default(false),
    slackChannel: text('slack_channel'),
    // Issue 14 §6: escalation steps ({afterSeconds, groupId, userIds}), the repeat interval while
    // firing and unacknowledged, and the acknowledgement reminder to its owner (§1).
    escalationSteps: jsonb('escalation_steps').$type<EscalationStep[]>().notNull().default(sql`'[]'::jsonb`),
    repeatIntervalSeconds: integer('repeat_interval_seconds'),
    ackReminderSeconds: integer('ack_reminder_seconds'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    nameLc: text('name_lc').generatedAlwaysAs((): SQL => sql`lower(${notificationGroups.name})`),
  },
  // Names are unique so commands can name a group ("group.edit ops").
  (t) => [
    uniqueIndex('notification_groups_name_lc_idx').on(t.nameLc),
    index('notification_groups_created_at_idx').on(t.createdAt),
    // 'Search by name' (contains), typed (migration 0024).
    index('notification_groups_name_lc_trgm_idx').using('gin', sql`${t.nameLc} gin_trgm_ops`),
    index('notification_groups_name_lc_grams_idx').using('gin', shortGrams(t.nameLc)),
  ],
);

/**
 * Issue 15 §1: a group's channel targets (webhook, Teams, PagerDuty, Telegram, ntfy) beside its
 * email list and Slack channel. `secrets` is AES-256-GCM ciphertext bound to the row's id
 * (server/channels/secret-box.ts); `settings` holds what may be shown.
 */
export const notificationChannels = pgTable(
  'notification_channels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    groupId: uuid('group_id')
      .notNull()
      .references(() => notificationGroups.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    name: text('name').notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    secrets: text('secrets').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    nameLc: text('name_lc').generatedAlwaysAs((): SQL => sql`lower(${notificationChannels.name})`),
  },
  // Names are unique within a group so commands can name a target ("group.remove-channel ops pager").
  (t) => [uniqueIndex('notification_channels_group_name_idx').on(t.groupId, t.nameLc)],
);

/** SPEC §3 Alert config: one per server; its rules are rows of alert_rules. */
export const alertConfigs = pgTable('alert_configs', {
  id: uuid('id').primaryKey().defaultRandom(),
  serverId: uuid('server_id')
    .notNull()
    .unique('alert_configs_server_id_key')
    .references(() => servers.id, { onDelete: 'cascade' }),
  createdAt: at('created_at').notNull().defaultNow(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

export const alertRules = pgTable(
  'alert_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    configId: uuid('config_id')
      .notNull()
      .references(() => alertConfigs.id, { onDelete: 'cascade' }),
    // Repeated from the config so the evaluator joins rules to servers directly.
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    type: text('type').notNull(),
    metric: text('metric', { enum: ['cpu', 'memory', 'disk', 'instance_down', 'service_down', 'disk_forecast', 'memory_forecast'] }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    timeLimit: integer('time_limit').notNull(),
    threshold: integer('threshold'),
    severity: text('severity', { enum: ['critical', 'warning', 'normal', 'info'] }).notNull(),
    notificationGroupId: uuid('notification_group_id').references(() => notificationGroups.id, { onDelete: 'set null' }),
    position: integer('position').notNull().default(0),
    // Issue 14 §4, §5: host-down suppression (on by default), the least time between two firing
    // notifications of one alert, and the flap detector (N transitions within M seconds).
    suppressOnHostDown: boolean('suppress_on_host_down').notNull().default(true),
    minNotifyIntervalSeconds: integer('min_notify_interval_seconds'),
    flapTransitions: integer('flap_transitions'),
    flapWindowSeconds: integer('flap_window_seconds'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('alert_rules_config_name_idx').on(t.configId, t.name),
    index('alert_rules_server_idx').on(t.serverId),
    index('alert_rules_group_idx').on(t.notificationGroupId),
    // The evaluator's grace-period statement (docs/decisions.md "Kept plans, candidates by the
    // lowest enabled threshold"): a candidate server's enabled rules read
    // from the index alone (no pass over every rule's row), and each metric's lowest enabled
    // threshold, which decides which servers are candidates, as one index probe.
    index('alert_rules_enabled_server_idx').on(t.serverId, t.metric, t.threshold, t.timeLimit, t.id).where(sql`${t.enabled}`),
    index('alert_rules_enabled_metric_idx').on(t.metric, t.threshold).where(sql`${t.enabled}`),
  ],
);

/** SPEC §3 Alert. Descriptive fields are copied when it fires, so the alert reads the same later. */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The server the alert is about; null for a check's alert (website_alert, issue 16) and for alerts about Opsdeck itself (the monitoring backend meta alert, issue 12). */
    serverId: uuid('server_id').references(() => servers.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').references(() => alertRules.id, { onDelete: 'set null' }),
    /** The check a website_alert is about (then serverId is null). */
    checkId: uuid('check_id').references((): AnyPgColumn => checks.id, { onDelete: 'cascade' }),
    checkRuleId: uuid('check_rule_id').references((): AnyPgColumn => checkRules.id, { onDelete: 'set null' }),
    /** What the rule watched: '' for server-wide rules, the mountpoint or the service name. */
    subject: text('subject').notNull().default(''),
    hostname: text('hostname').notNull(),
    instance: text('instance').notNull(),
    alertname: text('alertname').notNull(),
    description: text('description').notNull().default(''),
    type: text('type').notNull(),
    severity: text('severity', { enum: ['critical', 'warning', 'normal', 'info'] }).notNull(),
    status: text('status', { enum: ['firing', 'resolved', 'snoozed'] }).notNull().default('firing'),
    summary: text('summary').notNull().default(''),
    mountpoint: text('mountpoint'),
    volume: text('volume'),
    service: text('service'),
    value: doublePrecision('value'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    resolvedAt: at('resolved_at'),
    snoozedUntil: at('snoozed_until'),
    // Acknowledgement (issue 14): "I'm on it". The alert stays firing (or snoozed); these say who
    // owns it, why, and until when (null: until it resolves). Cleared when it resolves.
    ackUserId: uuid('ack_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept when the user is deleted, so the alert still says who. */
    ackUsername: text('ack_username'),
    ackNote: text('ack_note'),
    ackAt: at('ack_at'),
    ackUntil: at('ack_until'),
    // Routing (issue 14, server/alerting/routing.ts). When the firing notification was queued
    // (null: not yet — muted, deferred, or just opened); why it notifies nobody now (mute:
    // maintenance, silenced, host_down, flapping) with what caused it; the instance_down alert it
    // opened under; when the router must look at it next (escalation, repeat, reminder, deferral).
    notifiedAt: at('notified_at'),
    mute: text('mute', { enum: muteReasons }),
    muteRef: uuid('mute_ref'),
    muteLabel: text('mute_label'),
    hostDownAlertId: uuid('host_down_alert_id'),
    nextActionAt: at('next_action_at'),
    escalationStep: integer('escalation_step').notNull().default(0),
    lastSentAt: at('last_sent_at'),
    ackRemindedAt: at('ack_reminded_at'),
    // Issue 15 §3: where the alert came from. 'alertmanager': received from an Alertmanager
    // webhook (no rule; never pushed back to Alertmanager, so no loop); its fingerprint is
    // Alertmanager's, its labels and generator URL are kept as received.
    source: text('source', { enum: alertSources }).notNull().default('opsdeck'),
    fingerprint: text('fingerprint'),
    labels: jsonb('labels').$type<Record<string, string>>(),
    generatorUrl: text('generator_url'),
    hostnameLc: text('hostname_lc').generatedAlwaysAs((): SQL => sql`lower(${alerts.hostname})`),
    searchLc: text('search_lc').generatedAlwaysAs(
      (): SQL => sql`lower(${alerts.hostname} || ' ' || ${alerts.instance} || ' ' || ${alerts.alertname} || ' ' || coalesce(${alerts.service}, '') || ' ' || ${alerts.summary})`,
    ),
  },
  (t) => [
    // One open alert per server, rule and subject, whatever races the evaluator or an operator runs.
    uniqueIndex('alerts_open_idx').on(t.serverId, t.ruleId, t.subject).where(sql`${t.status} <> 'resolved'`),
    // The same for checks: one open alert per check rule.
    uniqueIndex('alerts_check_open_idx').on(t.checkId, t.checkRuleId, t.subject).where(sql`${t.status} <> 'resolved' and ${t.checkId} is not null`),
    index('alerts_check_created_idx').on(t.checkId, t.createdAt),
    // A server's or a check's, never both (alerts about Opsdeck itself have neither).
    check('alerts_server_or_check', sql`${t.serverId} is null or ${t.checkId} is null`),
    // Alerts about Opsdeck itself have neither a server nor a check: one open alert per type and subject.
    uniqueIndex('alerts_open_meta_idx').on(t.type, t.subject).where(sql`${t.serverId} is null and ${t.checkId} is null and ${t.status} <> 'resolved'`),
    // Issue 15 §3: one open alert per Alertmanager fingerprint, whatever notifications race.
    uniqueIndex('alerts_fingerprint_open_idx').on(t.fingerprint).where(sql`${t.fingerprint} is not null and ${t.status} <> 'resolved'`),
    index('alerts_fingerprint_idx').on(t.fingerprint, t.createdAt).where(sql`${t.fingerprint} is not null`),
    // The Alertmanager push (issue 15 §2) picks up changed alerts every second or so.
    index('alerts_updated_at_idx').on(t.updatedAt),
    // The list's order is created_at desc, id desc: with id in the indexes a page is a walk
    // along one of them, no sort (bench/alerts-list.ts).
    index('alerts_created_at_idx').on(t.createdAt, t.id),
    index('alerts_server_created_idx').on(t.serverId, t.createdAt, t.id),
    index('alerts_status_created_idx').on(t.status, t.createdAt, t.id),
    // The incident report: alerts resolved after a window's start (migration 0010).
    index('alerts_resolved_at_idx').on(t.resolvedAt),
    index('alerts_hostname_lc_trgm_idx').using('gin', sql`${t.hostnameLc} gin_trgm_ops`),
    index('alerts_search_lc_trgm_idx').using('gin', sql`${t.searchLc} gin_trgm_ops`),
    // The evaluator's sweep of acknowledgements whose time ran out: a handful of rows, never a scan.
    index('alerts_ack_until_idx').on(t.ackUntil).where(sql`${t.ackUntil} is not null`),
    // The router's sweep: alerts that need a look now (a handful), never a scan.
    index('alerts_next_action_idx').on(t.nextActionAt).where(sql`${t.nextActionAt} is not null`),
    // The recovery message of an instance_down alert lists the alerts suppressed under it.
    index('alerts_host_down_idx').on(t.hostDownAlertId).where(sql`${t.hostDownAlertId} is not null`),
  ],
);

/**
 * How many alerts there are per hostname, status and search text, so the alerts list's count
 * needs no pass over the alerts when it filters by nothing but status, hostname and search
 * (docs/alerting.md "Alerts list"). Kept exact by statement triggers on alerts (migrations 0008
 * and 0009) that only ever insert
 * delta rows, so concurrent writers never wait on each other here; the evaluator folds the
 * deltas together once a minute. The count is sum(n).
 */
export const alertCounts = pgTable('alert_counts', {
  hostname: text('hostname').notNull(),
  status: text('status').notNull(),
  /**
   * The alerts' search text (alerts.search_lc), so a search counts here too (migration 0009).
   * Alerts are written by the evaluator only, from their server, rule and subject: a fleet has a
   * few distinct texts per server, however many alerts it has had.
   */
  searchLc: text('search_lc').notNull().default(''),
  n: integer('n').notNull(),
});

/** SPEC §3 Alert timeline entries: who (or the evaluator) did what, when. */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    type: text('type', { enum: timelineEventTypes }).notNull(),
    at: at('at').notNull().defaultNow(),
    note: text('note'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept when the user is deleted, so the timeline still says who. */
    username: text('username'),
  },
  (t) => [
    index('alert_events_alert_idx').on(t.alertId, t.at),
    // The incident report: what happened inside a window (migration 0010).
    index('alert_events_at_idx').on(t.at),
  ],
);

/**
 * A condition that holds but has not held for its rule's whole grace period yet. In the
 * database so a restart continues the grace period instead of starting it over (or losing it).
 */
export const alertPending = pgTable(
  'alert_pending',
  {
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    since: at('since').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.subject] })],
);

/**
 * One row per firing or resolved transition that should be sent; the delivery worker claims
 * unprocessed rows (`for update skip locked`) and sets processed_at. Written in the same
 * transaction as the transition, so nothing is lost or sent twice across restarts.
 */
export const alertOutbox = pgTable(
  'alert_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    /** The timeline event it announces; null for what the router queues (repeats, escalations, reminders). */
    eventId: uuid('event_id').references(() => alertEvents.id, { onDelete: 'cascade' }),
    transition: text('transition', { enum: outboxTransitions }).notNull(),
    notificationGroupId: uuid('notification_group_id').references(() => notificationGroups.id, { onDelete: 'set null' }),
    /** Named users to email (an escalation step's users, the owner of an acknowledgement). */
    userIds: uuid('user_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Escalation step (1-based). */
    step: integer('step'),
    /** A page (issue 27 §3): the one contact method of the person in `userIds` it goes to. */
    contactMethodId: uuid('contact_method_id').references((): AnyPgColumn => contactMethods.id, { onDelete: 'cascade' }),
    /** One line the message carries ("Unacknowledged for 15m."). */
    reason: text('reason'),
    createdAt: at('created_at').notNull().defaultNow(),
    processedAt: at('processed_at'),
  },
  (t) => [
    index('alert_outbox_pending_idx').on(t.createdAt).where(sql`${t.processedAt} is null`),
    // Deleting an alert or an event (alert retention, a server's removal) cascades here: without
    // these, each deleted row was a pass over the whole outbox (migration 0020).
    index('alert_outbox_alert_idx').on(t.alertId),
    index('alert_outbox_event_idx').on(t.eventId),
  ],
);

/**
 * The delivery log (issue 4 §4): one row per attempt to send an outbox row on one channel.
 * It is also the worker's memory: a channel with a `sent` row is never sent again for that
 * outbox row (after a restart too), and a `failed` row with `retry_at` holds the outbox row
 * back until then. docs/alerting.md "Delivery".
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    outboxId: uuid('outbox_id')
      .notNull()
      .references(() => alertOutbox.id, { onDelete: 'cascade' }),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    transition: text('transition', { enum: outboxTransitions }).notNull(),
    /** email, slack, or a channel target's type (issue 15). */
    channel: text('channel').notNull(),
    /** The channel target it went to (issue 15); null for email and Slack, or once the target was removed. */
    channelId: uuid('channel_id').references(() => notificationChannels.id, { onDelete: 'set null' }),
    /** Email: the addresses of this attempt, comma-separated; Slack: the channel; a target: its name and masked address. */
    target: text('target').notNull(),
    /** The peer's HTTP status for this attempt, when it answered (issue 15 §4). */
    responseCode: integer('response_code'),
    /** 1 for the first try of this channel, counting up with each retry. */
    attempt: integer('attempt').notNull(),
    outcome: text('outcome', { enum: ['sent', 'failed', 'skipped'] }).notNull(),
    error: text('error'),
    /** A failed attempt that will be retried: when. Null once the worker gave up. */
    retryAt: at('retry_at'),
    /**
     * A channel that cannot send (no SMTP_URL, no Slack token, no addresses): the message as it
     * would have gone out, for the delivery log (issue 24 §6). Null for every other attempt.
     */
    message: jsonb('message').$type<{ subject: string | null; text: string }>(),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [index('alert_deliveries_outbox_idx').on(t.outboxId), index('alert_deliveries_alert_idx').on(t.alertId, t.at)],
);

/**
 * Personal API tokens (issue 13): a person's credential for scripts and curl, sent as
 * `Authorization: Bearer odt_…` without a session cookie. Only the SHA-256 of the token is kept
 * (256 random bits, so a plain hash is enough) with a short prefix to tell tokens apart; `scope`
 * is the owner's role or read-only; revoking sets `revoked_at` and keeps the row, so the trail's
 * records of its use still name it.
 */
export const personalTokens = pgTable(
  'personal_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    scope: text('scope', { enum: ['role', 'read'] }).notNull().default('role'),
    createdAt: at('created_at').notNull().defaultNow(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    uniqueIndex('personal_tokens_hash_idx').on(t.tokenHash),
    index('personal_tokens_user_idx').on(t.userId),
    // One live token per name per person, so "token.revoke ci" names one.
    uniqueIndex('personal_tokens_user_name_idx').on(t.userId, sql`lower(${t.name})`).where(sql`${t.revokedAt} is null`),
  ],
);

/**
 * SPEC §3 API key: what the agent installer presents (`Authorization: Bearer …`) to report that
 * it installed the exporter. Scoped to one server; only the SHA-256 of the key is kept (keys are
 * 256 random bits, so a plain hash is enough); revoking sets `revokedAt` instead of deleting,
 * so a revoked key answers "revoked" rather than "unknown".
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull(),
    /** The first characters of the key, so a person can tell keys apart without the secret. */
    prefix: text('prefix').notNull(),
    privileges: text('privileges').array().notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_key_hash_idx').on(t.keyHash), index('api_keys_server_idx').on(t.serverId)],
);

// ---------------------------------------------------------------------------------------------
// Checks (issue 16): HTTP(S), TCP, DNS and TLS checks run by the check runner
// (server/monitoring/checks), their results, rollups for 90-day uptime, and their website_alert
// rules. docs/checks.md.

/** One check: what to probe, how often, and its latest result (kept on the row so lists need no join). */
export const checks = pgTable(
  'checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['http', 'tcp', 'dns', 'tls'] }).notNull(),
    /** What the list shows and searches: the URL, host:port or the DNS name. */
    target: text('target').notNull(),
    url: text('url'),
    host: text('host'),
    port: integer('port'),
    method: text('method').notNull().default('GET'),
    /** Status codes that count as up, e.g. "200-299,301". */
    expectedStatus: text('expected_status').notNull().default('200-299'),
    keyword: text('keyword'),
    keywordMode: text('keyword_mode', { enum: ['contains', 'absent'] }).notNull().default('contains'),
    /** Names in the clear, values sealed (server/monitoring/checks/check-headers.ts); `value` only as stored before sealing. */
    headers: jsonb('headers').$type<({ name: string; sealed: string } | { name: string; value: string })[]>().notNull().default(sql`'[]'::jsonb`),
    followRedirects: boolean('follow_redirects').notNull().default(true),
    ignoreTlsErrors: boolean('ignore_tls_errors').notNull().default(false),
    recordType: text('record_type'),
    expectedAnswer: text('expected_answer'),
    resolver: text('resolver'),
    intervalS: integer('interval_s').notNull().default(60),
    timeoutS: integer('timeout_s').notNull().default(10),
    paused: boolean('paused').notNull().default(false),
    state: text('state').notNull().default('unknown'),
    stateChangedAt: at('state_changed_at'),
    lastCheckedAt: at('last_checked_at'),
    lastError: text('last_error'),
    latencyMs: doublePrecision('latency_ms'),
    statusCode: integer('status_code'),
    certExpiresAt: at('cert_expires_at'),
    /** A chain problem seen on the last TLS handshake (self-signed, expired, wrong name), also when ignored. */
    certProblem: text('cert_problem'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    nameLc: text('name_lc').generatedAlwaysAs((): SQL => sql`lower(${checks.name})`),
    targetLc: text('target_lc').generatedAlwaysAs((): SQL => sql`lower(${checks.target})`),
    /**
     * uptime24h's sums as the result writer left them (docs/decisions.md "The Checks list
     * at 5,000 checks"): check_hourly's total and up over
     * the 24 whole hours before `up24Hour` and that hour. The list reads them only while `up24Hour`
     * is the current hour, and sums check_hourly otherwise.
     */
    up24Hour: at('up24_hour'),
    up24Total: integer('up24_total'),
    up24Up: integer('up24_up'),
  },
  (t) => [
    // Names are unique so commands can name a check ("check.pause shop").
    uniqueIndex('checks_name_lc_idx').on(t.nameLc),
    index('checks_created_at_idx').on(t.createdAt, t.id),
    index('checks_name_lc_trgm_idx').using('gin', sql`${t.nameLc} gin_trgm_ops`),
    index('checks_target_lc_trgm_idx').using('gin', sql`${t.targetLc} gin_trgm_ops`),
  ],
);

/** A check's website_alert rules: down, slow, certificate expiring (one of each per check). */
export const checkRules = pgTable(
  'check_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    checkId: uuid('check_id')
      .notNull()
      .references(() => checks.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['down', 'latency', 'cert_expiry'] }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    timeLimit: integer('time_limit').notNull(),
    /** Milliseconds for latency, days for cert_expiry, null for down. */
    threshold: integer('threshold'),
    severity: text('severity', { enum: ['critical', 'warning', 'normal', 'info'] }).notNull(),
    notificationGroupId: uuid('notification_group_id').references(() => notificationGroups.id, { onDelete: 'set null' }),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('check_rules_check_kind_idx').on(t.checkId, t.kind), index('check_rules_group_idx').on(t.notificationGroupId)],
);

/** A check rule's condition that holds but has not held for its grace period yet (as alert_pending). */
export const checkPending = pgTable('check_pending', {
  ruleId: uuid('rule_id')
    .primaryKey()
    .references(() => checkRules.id, { onDelete: 'cascade' }),
  checkId: uuid('check_id')
    .notNull()
    .references(() => checks.id, { onDelete: 'cascade' }),
  since: at('since').notNull(),
});

/** Every result, kept CHECK_RETENTION_HOURS for charts at full resolution. */
export const checkSamples = pgTable(
  'check_samples',
  {
    checkId: uuid('check_id')
      .notNull()
      .references(() => checks.id, { onDelete: 'cascade' }),
    ts: at('ts').notNull(),
    up: boolean('up').notNull(),
    latencyMs: real('latency_ms'),
    statusCode: smallint('status_code'),
    certDaysLeft: real('cert_days_left'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.checkId, t.ts] }), index('check_samples_ts_idx').on(t.ts)],
);

/**
 * Per check and hour: results, how many were up, latency sum and maximum. Upserted with each
 * batch of results (no roll-up job to fall behind), kept 90 days: longer charts and uptime
 * figures read these, 24 rows a day per check.
 */
export const checkHourly = pgTable(
  'check_hourly',
  {
    checkId: uuid('check_id')
      .notNull()
      .references(() => checks.id, { onDelete: 'cascade' }),
    bucket: at('bucket').notNull(),
    total: integer('total').notNull(),
    up: integer('up').notNull(),
    latencySum: doublePrecision('latency_sum').notNull().default(0),
    latencyCount: integer('latency_count').notNull().default(0),
    latencyMax: real('latency_max'),
  },
  (t) => [primaryKey({ columns: [t.checkId, t.bucket] }), index('check_hourly_bucket_idx').on(t.bucket)],
);

/** Per check and UTC day, the same sums: the 90-day uptime bars read 90 rows per check. */
export const checkDaily = pgTable(
  'check_daily',
  {
    checkId: uuid('check_id')
      .notNull()
      .references(() => checks.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    total: integer('total').notNull(),
    up: integer('up').notNull(),
    latencySum: doublePrecision('latency_sum').notNull().default(0),
    latencyCount: integer('latency_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.checkId, t.day] }), index('check_daily_day_idx').on(t.day)],
);

/**
 * The latest "full within N hours" forecast of each server's disk and memory (issue 16): a
 * Theil–Sen line over the last 6 hours (server/alerting/forecasts.ts), computed every few
 * minutes by the evaluator; forecast rules and the Disk and Memory tabs read it.
 */
export const serverForecasts = pgTable(
  'server_forecasts',
  {
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    metric: text('metric', { enum: ['disk', 'memory'] }).notNull(),
    /** Null: not filling (flat or falling). */
    hoursLeft: doublePrecision('hours_left'),
    fullAt: at('full_at'),
    slopePerHour: doublePrecision('slope_per_hour').notNull(),
    fittedNow: doublePrecision('fitted_now').notNull(),
    points: integer('points').notNull(),
    computedAt: at('computed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.metric] })],
);

// ---------------------------------------------------------------------------------------------
// Alert routing (issue 14): silences, maintenance windows, flap state. docs/alerting.md "Routing".

/** Matchers with a start, an end, a creator and a comment; expiring one sets its end to now. */
export const silences = pgTable(
  'silences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    matchers: jsonb('matchers').$type<Matcher[]>().notNull(),
    startsAt: at('starts_at').notNull(),
    endsAt: at('ends_at').notNull(),
    comment: text('comment').notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('silences_ends_at_idx').on(t.endsAt), index('silences_created_at_idx').on(t.createdAt)],
);

/**
 * Planned downtime: servers (by id) or matchers, one-off (start to end) or recurring (an RRULE
 * whose occurrences start at the start's wall-clock time in `timezone` and last end − start).
 */
export const maintenanceWindows = pgTable(
  'maintenance_windows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    comment: text('comment').notNull().default(''),
    serverIds: uuid('server_ids').array().notNull().default(sql`'{}'::uuid[]`),
    matchers: jsonb('matchers').$type<Matcher[]>().notNull().default(sql`'[]'::jsonb`),
    startsAt: at('starts_at').notNull(),
    endsAt: at('ends_at').notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    rrule: text('rrule'),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    nameLc: text('name_lc').generatedAlwaysAs((): SQL => sql`lower(${maintenanceWindows.name})`),
  },
  (t) => [index('maintenance_windows_created_at_idx').on(t.createdAt)],
);

/** Recent firing/resolved transitions of one rule and subject whose rule detects flapping. */
export const alertFlaps = pgTable(
  'alert_flaps',
  {
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => alertRules.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    transitions: timestamp('transitions', { withTimezone: true, mode: 'date' }).array().notNull().default(sql`'{}'::timestamptz[]`),
    /** Set while flapping: since when; the one flapping message went out then. */
    flappingSince: at('flapping_since'),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.subject] })],
);

/**
 * Issue 13: a person's command aliases (`alias.set ack1h "alert.snooze --for 1h"`), completed
 * like commands in the palette and on the command line. Names are stored lower-case and have no
 * dot, so they never shadow a command id.
 */
export const commandAliases = pgTable(
  'command_aliases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    line: text('line').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('command_aliases_user_name_idx').on(t.userId, t.name)],
);

// Public status pages (issue 16 §3, docs/status-pages.md): what an admin composes, and the incident
// posts shown on it. The page's groups are one jsonb document (read and written whole); items that
// name a server or check deleted since are left out of the public view.

/** One status page, served read-only at /status/<slug> without sign-in. */
export const statusPages = pgTable(
  'status_pages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    groups: jsonb('groups').$type<{ name: string; items: { kind: 'server' | 'check'; id: string; displayName: string; showAddress: boolean }[] }[]>().notNull().default(sql`'[]'::jsonb`),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('status_pages_slug_idx').on(t.slug), index('status_pages_created_at_idx').on(t.createdAt, t.id)],
);

/** An incident on a status page: opened by the first post, closed by status.resolve. */
export const statusIncidents = pgTable(
  'status_incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    pageId: uuid('page_id')
      .notNull()
      .references(() => statusPages.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    resolvedAt: at('resolved_at'),
  },
  (t) => [
    index('status_incidents_page_idx').on(t.pageId, t.createdAt),
    // One open incident per page: status.post adds to it, status.resolve closes it.
    uniqueIndex('status_incidents_open_idx').on(t.pageId).where(sql`${t.resolvedAt} is null`),
  ],
);

/** One update of an incident (markdown, rendered without raw HTML). Who wrote it stays in the audit trail, never on the page. */
export const statusPosts = pgTable(
  'status_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => statusIncidents.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    /** The post that resolved the incident. */
    resolves: boolean('resolves').notNull().default(false),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('status_posts_incident_idx').on(t.incidentId, t.createdAt)],
);

/**
 * What changed, for the live stream (`GET /api/live`, server/live). Rows are written by triggers
 * on the tables people watch (migration 0028: alerts, their timeline and deliveries, servers,
 * services, checks, command history) and by monitoring once per written round; an insert here
 * notifies `opsdeck_live`, which every process listens on. Kept for LIVE_RETENTION_MINUTES so a
 * tab that lost its connection resumes from the last id it saw.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: at('at').notNull().defaultNow(),
    kind: text('kind', { enum: ['alert', 'server', 'servers', 'services', 'check', 'history'] }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('live_events_at_idx').on(t.at)],
);

// ---------------------------------------------------------------------------------------------
// On call (issue 27, docs/oncall.md): schedules with their layers, overrides and swaps, and the
// secret tokens of their calendar feeds. The schedule core (server/oncall) answers from these.

/**
 * One on-call schedule. Its layers are one JSON list (the core's `Layer[]`, participants as user
 * ids): they are read and written whole, their order is which wins, and a layer's restrictions
 * and rotation are values of it (docs/decisions.md "On call: schedules as a resource").
 */
export const oncallSchedules = pgTable(
  'oncall_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    timeZone: text('time_zone').notNull(),
    layers: jsonb('layers').$type<OnCallLayer[]>().notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    nameLc: text('name_lc').generatedAlwaysAs((): SQL => sql`lower(${oncallSchedules.name})`),
  },
  (t) => [uniqueIndex('oncall_schedules_name_lower_idx').on(sql`lower(${t.name})`), index('oncall_schedules_created_at_idx').on(t.createdAt)],
);

/** Someone covers a range of a schedule, whatever its layers say. Ranges of one schedule never overlap. */
export const oncallOverrides = pgTable(
  'oncall_overrides',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => oncallSchedules.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startsAt: at('starts_at').notNull(),
    endsAt: at('ends_at').notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('oncall_overrides_schedule_idx').on(t.scheduleId, t.startsAt), check('oncall_overrides_range', sql`${t.endsAt} > ${t.startsAt}`)],
);

/** Two shifts of a schedule's layers exchange their people; each is named by its layer and the instant it starts. */
export const oncallSwaps = pgTable(
  'oncall_swaps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => oncallSchedules.id, { onDelete: 'cascade' }),
    firstLayer: text('first_layer').notNull(),
    firstStart: at('first_start').notNull(),
    secondLayer: text('second_layer').notNull(),
    secondStart: at('second_start').notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('oncall_swaps_schedule_idx').on(t.scheduleId)],
);

/**
 * The secret of a calendar feed (RFC 5545): a schedule's (`schedule_id`) or a person's
 * (`user_id`), one live secret each. Only its SHA-256 is kept; rotating replaces the row and
 * revoking deletes it, so an old URL finds nothing.
 */
export const oncallFeedTokens = pgTable(
  'oncall_feed_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scheduleId: uuid('schedule_id').references(() => oncallSchedules.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('oncall_feed_tokens_hash_idx').on(t.tokenHash),
    uniqueIndex('oncall_feed_tokens_schedule_idx').on(t.scheduleId),
    uniqueIndex('oncall_feed_tokens_user_idx').on(t.userId),
    check('oncall_feed_tokens_owner', sql`(${t.scheduleId} is null) <> (${t.userId} is null)`),
  ],
);

// ─── People's contact methods (issue 27 §2) ─────────────────────────────────────────────────

/**
 * The places one person is reached when paged (contract/contact-methods.ts). `secrets` are sealed
 * with the channel secret box, bound to the row's id (server/channels/secret-box.ts). A method is
 * verified once a test message's code came back (`verified_at`); the open code is kept as its
 * SHA-256 only, with when it expires and how many wrong tries it has had.
 */
export const contactMethods = pgTable(
  'contact_methods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    label: text('label').notNull(),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    secrets: text('secrets').notNull(),
    verifiedAt: at('verified_at'),
    codeHash: text('code_hash'),
    codeExpiresAt: at('code_expires_at'),
    codeAttempts: smallint('code_attempts').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
    labelLc: text('label_lc').generatedAlwaysAs((): SQL => sql`lower(${contactMethods.label})`),
  },
  // Labels are unique per person so commands can name a method ("contact.verify phone 123456").
  (t) => [uniqueIndex('contact_methods_user_label_idx').on(t.userId, t.labelLc)],
);

/**
 * Issue 27 §4: the page actions (signed acknowledge and resolve links in a notification) that were
 * used, by the token's id: a link works once. A row outlives its token's expiry by a day at most
 * (pruned when a later action is used); an expired token is refused by its expiry alone.
 */
export const pageActionUses = pgTable(
  'page_action_uses',
  {
    tokenId: text('token_id').primaryKey(),
    alertId: uuid('alert_id').notNull(),
    userId: uuid('user_id').notNull(),
    action: text('action').notNull(),
    via: text('via').notNull(),
    usedAt: at('used_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('page_action_uses_expires_at_idx').on(t.expiresAt)],
);

/**
 * A person's notification rules (issue 27 §2): "after N minutes unacknowledged, contact method X".
 * A step goes with its method (removing the method removes its steps) and with the person.
 */
export const notificationRules = pgTable(
  'notification_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contactMethodId: uuid('contact_method_id')
      .notNull()
      .references(() => contactMethods.id, { onDelete: 'cascade' }),
    afterMinutes: integer('after_minutes').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  // One step per method and delay: the same method twice at one delay would page twice.
  (t) => [uniqueIndex('notification_rules_user_method_after_idx').on(t.userId, t.contactMethodId, t.afterMinutes), check('notification_rules_after_minutes_check', sql`${t.afterMinutes} between 0 and 1440`)],
);

/**
 * Pages waiting for their time (issue 27 §3): an escalation step that pages a schedule or named
 * people plans one row per step of each person's notification rules; the router queues each when
 * it is due while the alert is firing, unacknowledged and not muted, and drops them all the
 * moment the alert is acknowledged or resolved.
 */
export const alertPages = pgTable(
  'alert_pages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    contactMethodId: uuid('contact_method_id')
      .notNull()
      .references(() => contactMethods.id, { onDelete: 'cascade' }),
    dueAt: at('due_at').notNull(),
    /** The escalation step (1-based) that planned it. */
    step: integer('step').notNull(),
    reason: text('reason').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('alert_pages_alert_due_idx').on(t.alertId, t.dueAt)],
);
