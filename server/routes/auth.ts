import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE, signinSchema } from '../contract/auth';
import { updateAccountSchema } from '../contract/users';
import { verifyPassword } from '../auth/password';
import { SigninLimiter } from '../auth/signin-limiter';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { HttpError, conflict, forbidden, fromZod, notFound, pgConstraint } from '../http/errors';
import { cookieOptions, createSession, destroySession, readToken, requireUser } from '../http/session';
import { audited, auditActor, auditTarget } from '../audit/trail';
import { USERNAME_TAKEN, userTarget, usernameTaken, userToApi } from './users';

// A hash to compare against when the email is unknown, so both paths take the same time.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export function registerAuth(app: FastifyInstance, db: Db, config: Config): void {
  // Failed attempts per account and address (request.ip: the real client when TRUST_PROXY is set).
  const limiter = new SigninLimiter({ failuresBeforeBackoff: config.signinRateLimit, firstBackoffS: config.signinBackoffS.first, maxBackoffS: config.signinBackoffS.max });
  app.post('/api/auth/signin', async (request, reply) => {
    const parsed = signinSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const { email, password } = parsed.data;
    // Refused before the password is checked: a blocked guess costs no scrypt and tells nothing.
    const waitMs = await limiter.retryAfterMs(email, request.ip);
    if (waitMs > 0) {
      const waitS = Math.ceil(waitMs / 1000);
      reply.header('retry-after', String(waitS));
      throw new HttpError(429, `Too many sign-in attempts. Try again in ${waitS} s.`);
    }
    const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`).limit(1);
    const ok = await verifyPassword(password, row?.passwordHash ?? DUMMY_HASH);
    // Sign-ins are in the trail, failed ones too (named by the email tried; the limiter bounds them).
    if (!row || !ok) {
      auditActor(request, { kind: 'anonymous', userId: null, username: email.trim().slice(0, 200), role: null });
      await limiter.failed(email, request.ip);
      throw new HttpError(401, 'Invalid email or password');
    }
    auditActor(request, { kind: 'user', userId: row.id, username: row.username, role: row.role });
    auditTarget(request, userTarget(row));
    if (row.status !== 'active') throw new HttpError(401, 'This account is suspended');
    await limiter.succeeded(email, request.ip);
    const { token } = await audited(request, db, (tx) => createSession(tx, row.id, config.sessionTtlMs));
    reply.setCookie(SESSION_COOKIE, token, cookieOptions(config.cookieSecure, config.sessionTtlMs));
    return { result: { _id: row.id, username: row.username, email: row.email, role: row.role } };
  });

  // Always succeeds: signing out of an expired session is still signing out (SPEC §8 calls it on 401).
  app.post('/api/auth/signout', async (request, reply) => {
    const token = readToken(request);
    if (token && request.user) {
      auditTarget(request, userTarget({ id: request.user._id, username: request.user.username }));
      await audited(request, db, (tx) => destroySession(tx, token));
    } else if (token) {
      // An expired or unknown session: nobody to name, nothing of anyone's changes.
      await destroySession(db, token);
    }
    reply.clearCookie(SESSION_COOKIE, cookieOptions(config.cookieSecure));
    return { result: true };
  });

  app.get('/api/auth/whoami', async (request) => ({ result: requireUser(request) }));

  // The account drawer (SPEC §7: resource auth/users with an id) reads and renames only oneself.
  app.get<{ Params: { id: string } }>('/api/auth/users/:id', async (request) => {
    const me = requireUser(request);
    if (request.params.id !== me._id) throw forbidden('You can only open your own account');
    const [row] = await db.select().from(users).where(eq(users.id, me._id)).limit(1);
    if (!row) throw notFound('Account not found');
    return { result: userToApi(row) };
  });

  app.patch<{ Params: { id: string } }>('/api/auth/users/:id', async (request) => {
    const me = requireUser(request);
    if (request.params.id !== me._id) throw forbidden('You can only change your own account');
    auditTarget(request, userTarget({ id: me._id, username: me.username }));
    const parsed = updateAccountSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const { username } = parsed.data;
    if (await usernameTaken(db, username, me._id)) throw conflict(USERNAME_TAKEN, 'username');
    try {
      const row = await audited(request, db, async (tx) => {
        const [updated] = await tx.update(users).set({ username }).where(eq(users.id, me._id)).returning();
        if (!updated) throw notFound('Account not found');
        return updated;
      });
      return { result: userToApi(row) };
    } catch (error) {
      if (pgConstraint(error) === 'users_username_lower_idx') throw conflict(USERNAME_TAKEN, 'username');
      throw error;
    }
  });
}
