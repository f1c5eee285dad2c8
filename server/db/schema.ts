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

/** Small facts the server remembers between starts (e.g. that the demo fleet was registered once). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});
