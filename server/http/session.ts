import { createHash, randomBytes } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, type Whoami } from '../contract/auth';
import { can, whyNot, type Permission } from '../contract/permissions';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    user: Whoami | null;
    sessionId: string | null;
  }
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(db: Db, userId: string, ttlMs: number): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlMs);
  await db.insert(sessions).values({ id: hash(token), userId, expiresAt });
  // Expired rows of anyone are useless: sweep them on sign-in rather than on a timer.
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date()));
  return { token, expiresAt };
}

export async function destroySession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, hash(token)));
}

/** Resolves the cookie to a signed-in, active user; 'expired' when the session ran out. */
export async function loadSession(db: Db, token: string | undefined): Promise<{ user: Whoami; sessionId: string } | 'expired' | null> {
  if (!token || token.length > 200) return null;
  const id = hash(token);
  const rows = await db
    .select({ expiresAt: sessions.expiresAt, _id: users.id, username: users.username, email: users.email, role: users.role, status: users.status })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  if (row.expiresAt.getTime() <= Date.now() || row.status !== 'active') {
    await db.delete(sessions).where(eq(sessions.id, id));
    return 'expired';
  }
  return { user: { _id: row._id, username: row.username, email: row.email, role: row.role }, sessionId: id };
}

export function cookieOptions(secure: boolean, maxAgeMs?: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, ...(maxAgeMs !== undefined ? { maxAge: Math.floor(maxAgeMs / 1000) } : {}) };
}

export function readToken(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}

/** Route guard: 401 without a session, 403 with the reason when the role lacks the permission. */
export function requirePermission(permission: Permission) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!request.user) throw new HttpError(401, 'Not signed in');
    if (!can(request.user.role, permission)) throw new HttpError(403, whyNot(permission));
  };
}

export function requireUser(request: FastifyRequest): Whoami {
  if (!request.user) throw new HttpError(401, 'Not signed in');
  return request.user;
}
