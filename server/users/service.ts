import { and, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Whoami } from '../contract/auth';
import type { SignedOutReason, updateUserSchema, User } from '../contract/users';
import type { AuditScope } from '../audit/trail';
import { hashPassword } from '../auth/password';
import type { Db } from '../db/client';
import { rowCount } from '../db/row-counts';
import { personalTokens, sessions, shortGrams, users } from '../db/schema';
import { conflict, notFound, pgConstraint } from '../http/errors';
import { rotationsOf, touchSchedulesOf } from '../oncall/store';
import type { ResourceDef } from '../routes/resource';

type UserRow = typeof users.$inferSelect;

/** The API shape of a user: never the password hash. */
export function userToApi(row: UserRow): User {
  return {
    _id: row.id,
    username: row.username,
    email: row.email,
    phonenumber: row.phonenumber,
    role: row.role,
    status: row.status,
    avatarUrl: row.avatarUrl,
    createdAt: row.createdAt.toISOString(),
  };
}

async function emailTaken(db: Db, email: string, exceptId?: string): Promise<boolean> {
  const rows = await db.query.users.findMany({ where: (u, { sql }) => sql`lower(${u.email}) = ${email.toLowerCase()}`, columns: { id: true } });
  return rows.some((r) => r.id !== exceptId);
}

/** Usernames are unique case-insensitively (migration 0018): they name people in the audit trail. */
export async function usernameTaken(db: Db, username: string, exceptId?: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
  return rows.some((r) => r.id !== exceptId);
}
export const USERNAME_TAKEN = 'A user with this username already exists';

/** How the audit trail names a user. */
export const userTarget = (row: { id: string; username: string }) => ({ kind: 'user', id: row.id, name: row.username });

/** scrypt before the transaction opens: a change's transaction should not wait on hashing. */
async function hashed<T extends { password?: string }>(input: T): Promise<Omit<T, 'password'> & { passwordHash?: string }> {
  const { password, ...rest } = input;
  return password ? { ...rest, passwordHash: await hashPassword(password) } : rest;
}

/**
 * What ends a person's access: a new password (set by an admin or by the person), another role and
 * a suspension end every session and revoke every personal API token of theirs (docs/decisions.md
 * "Secrets"). The answer says how many (`signedOut`), so the screen can say it.
 */
function endsAccess(input: { passwordHash?: string; role?: string; status?: string }, existing: UserRow): SignedOutReason | null {
  if (input.passwordHash) return 'password';
  if (input.status === 'suspended' && existing.status !== 'suspended') return 'suspended';
  if (input.role !== undefined && input.role !== existing.role) return 'role';
  return null;
}

async function signOutEverywhere(db: Db, userId: string): Promise<{ sessions: number; tokens: number }> {
  const ended = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  const revoked = await db
    .update(personalTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(personalTokens.userId, userId), isNull(personalTokens.revokedAt)))
    .returning({ id: personalTokens.id });
  return { sessions: ended.length, tokens: revoked.length };
}

/** Users as SPEC §7's resource (`users.*` in the route table): admins create, change and delete them. */
export const usersResource: Omit<ResourceDef<UserRow, User>, 'name'> & { name: 'users' } = {
  name: 'users',
  table: users,
  id: users.id,
  toApi: userToApi,
  listColumns: { id: users.id, username: users.username, email: users.email, phonenumber: users.phonenumber, role: users.role, status: users.status, avatarUrl: users.avatarUrl, createdAt: users.createdAt },
  read: 'users.read',
  sortable: { createdAt: users.createdAt, username: users.username, email: users.email, role: users.role, status: users.status },
  filterable: {
    username: { column: users.username, lower: users.usernameLc, grams: shortGrams(users.usernameLc), ops: ['contains', 'eq'] },
    email: { column: users.email, lower: users.emailLc, grams: shortGrams(users.emailLc), ops: ['contains', 'eq'] },
    role: { column: users.role, ops: ['contains', 'eq', 'in'] },
    status: { column: users.status, ops: ['in', 'eq'] },
    createdAt: { column: users.createdAt, ops: ['between'], kind: 'date' },
  },
  search: [{ lower: users.usernameLc, grams: shortGrams(users.usernameLc) }, { lower: users.emailLc, grams: shortGrams(users.emailLc) }, { lower: sql`lower(${users.phonenumber})` }],
  total: (db) => rowCount(db, 'users'),
  defaultSort: { by: 'createdAt', direction: 'asc' },
  target: userTarget,
  conflicts: {
    users_username_lower_idx: { field: 'username', message: USERNAME_TAKEN },
    users_email_lower_idx: { field: 'email', message: 'A user with this email already exists' },
  },
  create: {
    prepare: hashed,
    async toRow(input, { db }) {
      if (await emailTaken(db, input.email)) throw conflict('A user with this email already exists', 'email');
      if (await usernameTaken(db, input.username)) throw conflict(USERNAME_TAKEN, 'username');
      return input;
    },
  },
  update: {
    async prepare(input: z.output<typeof updateUserSchema>, existing: UserRow) {
      const values = await hashed(input);
      return { values, ends: endsAccess(values, existing) };
    },
    async toRow({ values: input }: { values: Awaited<ReturnType<typeof hashed<z.output<typeof updateUserSchema>>>> }, existing, { db, user }) {
      if (existing.id === user._id) {
        if (input.role && input.role !== 'admin') throw conflict('You cannot remove the admin role from your own account', 'role');
        if (input.status === 'suspended') throw conflict('You cannot suspend your own account', 'status');
      }
      if (input.email && (await emailTaken(db, input.email, existing.id))) throw conflict('A user with this email already exists', 'email');
      if (input.username && (await usernameTaken(db, input.username, existing.id))) throw conflict(USERNAME_TAKEN, 'username');
      return input;
    },
    async after(updated, { values, ends }: { values: { status?: string }; ends: SignedOutReason | null }, { db }) {
      if (ends) return { signedOut: { reason: ends, ...(await signOutEverywhere(db, updated.id)) } };
      // Already suspended: nothing of theirs is accepted, but nothing may outlive the suspension either.
      if (values.status === 'suspended') await signOutEverywhere(db, updated.id);
    },
  },
  remove: {
    async before(existing, { user, db }) {
      if (existing.id === user._id) throw conflict('You cannot delete your own account');
      // A rotation names its people in order: taking one out changes everyone's shifts, which is the schedule editor's call.
      const rotations = await rotationsOf(db, existing.id);
      if (rotations.length) {
        const where = rotations.map((r) => `“${r.schedule}” (layer ${r.layer})`).join(', ');
        throw conflict(`${existing.username} is in the rotation of the on-call schedule${rotations.length === 1 ? '' : 's'} ${where}: take them out of it first`);
      }
      // Their overrides go with them: the schedules that had any have changed.
      await touchSchedulesOf(db, existing.id);
    },
  },
};

/** The account drawer's read (SPEC §7: resource auth/users with an id): one's own account. */
export async function getAccount(db: Db, actor: Whoami): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.id, actor._id)).limit(1);
  if (!row) throw notFound('Account not found');
  return userToApi(row);
}

/** Renames one's own account: the only change the account drawer makes. */
export async function renameAccount(tx: Db, input: { username: string }, actor: Whoami, audit: AuditScope): Promise<User> {
  audit.target(userTarget({ id: actor._id, username: actor.username }));
  if (await usernameTaken(tx, input.username, actor._id)) throw conflict(USERNAME_TAKEN, 'username');
  try {
    const [updated] = await tx.update(users).set({ username: input.username }).where(eq(users.id, actor._id)).returning();
    if (!updated) throw notFound('Account not found');
    return userToApi(updated);
  } catch (error) {
    // Another rename to the same name at the same moment meets the unique index.
    if (pgConstraint(error) === 'users_username_lower_idx') throw conflict(USERNAME_TAKEN, 'username');
    throw error;
  }
}
