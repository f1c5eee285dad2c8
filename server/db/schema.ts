import { sql, type SQL } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
