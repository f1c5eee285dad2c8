import { sql, type SQL } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
    // Substring search (contains) at 100k rows needs trigram indexes, not btrees.
    index('users_username_lc_trgm_idx').using('gin', sql`${t.usernameLc} gin_trgm_ops`),
    index('users_email_lc_trgm_idx').using('gin', sql`${t.emailLc} gin_trgm_ops`),
    index('users_created_at_idx').on(t.createdAt),
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

export const commandHistory = pgTable(
  'command_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    command: text('command').notNull(),
    input: jsonb('input'),
    source: text('source').notNull(),
    outcome: text('outcome').notNull(),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('command_history_created_at_idx').on(t.createdAt), index('command_history_command_idx').on(t.command)],
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
    hostnameLc: text('hostname_lc').generatedAlwaysAs((): SQL => sql`lower(${servers.hostname})`),
  },
  (t) => [
    index('servers_created_at_idx').on(t.createdAt),
    index('servers_hostname_lc_trgm_idx').using('gin', sql`${t.hostnameLc} gin_trgm_ops`),
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
  (t) => [uniqueIndex('services_server_name_idx').on(t.serverId, t.serviceName), index('services_status_idx').on(t.status), index('services_created_at_idx').on(t.createdAt)],
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
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    nameLc: text('name_lc').generatedAlwaysAs((): SQL => sql`lower(${notificationGroups.name})`),
  },
  // Names are unique so commands can name a group ("group.edit ops").
  (t) => [uniqueIndex('notification_groups_name_lc_idx').on(t.nameLc), index('notification_groups_created_at_idx').on(t.createdAt)],
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
    metric: text('metric', { enum: ['cpu', 'memory', 'disk', 'instance_down', 'service_down'] }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    timeLimit: integer('time_limit').notNull(),
    threshold: integer('threshold'),
    severity: text('severity', { enum: ['critical', 'warning', 'normal', 'info'] }).notNull(),
    notificationGroupId: uuid('notification_group_id').references(() => notificationGroups.id, { onDelete: 'set null' }),
    position: integer('position').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('alert_rules_config_name_idx').on(t.configId, t.name), index('alert_rules_server_idx').on(t.serverId), index('alert_rules_group_idx').on(t.notificationGroupId)],
);

/** SPEC §3 Alert. Descriptive fields are copied when it fires, so the alert reads the same later. */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serverId: uuid('server_id')
      .notNull()
      .references(() => servers.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').references(() => alertRules.id, { onDelete: 'set null' }),
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
    hostnameLc: text('hostname_lc').generatedAlwaysAs((): SQL => sql`lower(${alerts.hostname})`),
    searchLc: text('search_lc').generatedAlwaysAs(
      (): SQL => sql`lower(${alerts.hostname} || ' ' || ${alerts.instance} || ' ' || ${alerts.alertname} || ' ' || coalesce(${alerts.service}, '') || ' ' || ${alerts.summary})`,
    ),
  },
  (t) => [
    // One open alert per server, rule and subject, whatever races the evaluator or an operator runs.
    uniqueIndex('alerts_open_idx').on(t.serverId, t.ruleId, t.subject).where(sql`${t.status} <> 'resolved'`),
    // The list's order is created_at desc, id desc: with id in the indexes a page is a walk
    // along one of them, no sort (bench/alerts-list.ts).
    index('alerts_created_at_idx').on(t.createdAt, t.id),
    index('alerts_server_created_idx').on(t.serverId, t.createdAt, t.id),
    index('alerts_status_created_idx').on(t.status, t.createdAt, t.id),
    // The incident report: alerts resolved after a window's start (migration 0010).
    index('alerts_resolved_at_idx').on(t.resolvedAt),
    index('alerts_hostname_lc_trgm_idx').using('gin', sql`${t.hostnameLc} gin_trgm_ops`),
    index('alerts_search_lc_trgm_idx').using('gin', sql`${t.searchLc} gin_trgm_ops`),
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
    type: text('type', { enum: ['firing', 'resolved', 'playbook_action', 'snoozed'] }).notNull(),
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
    eventId: uuid('event_id')
      .notNull()
      .references(() => alertEvents.id, { onDelete: 'cascade' }),
    transition: text('transition', { enum: ['firing', 'resolved'] }).notNull(),
    notificationGroupId: uuid('notification_group_id').references(() => notificationGroups.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    processedAt: at('processed_at'),
  },
  (t) => [index('alert_outbox_pending_idx').on(t.createdAt).where(sql`${t.processedAt} is null`)],
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
    transition: text('transition', { enum: ['firing', 'resolved'] }).notNull(),
    channel: text('channel', { enum: ['email', 'slack'] }).notNull(),
    /** Email: the addresses of this attempt, comma-separated; Slack: the channel. */
    target: text('target').notNull(),
    /** 1 for the first try of this channel, counting up with each retry. */
    attempt: integer('attempt').notNull(),
    outcome: text('outcome', { enum: ['sent', 'failed', 'skipped'] }).notNull(),
    error: text('error'),
    /** A failed attempt that will be retried: when. Null once the worker gave up. */
    retryAt: at('retry_at'),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [index('alert_deliveries_outbox_idx').on(t.outboxId), index('alert_deliveries_alert_idx').on(t.alertId, t.at)],
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
