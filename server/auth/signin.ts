import { sql } from 'drizzle-orm';
import type { Signin, Whoami } from '../contract/auth';
import type { AuditActor } from '../audit/record';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { HttpError } from '../http/errors';
import { verifyPassword } from './password';
import type { SigninLimiter } from './signin-limiter';

// A hash to compare against when the email is unknown, so both paths take the same time.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** What the caller is told on the way: who tried (for the trail), and how long to wait (for Retry-After). */
export interface SigninWatch {
  tried: (actor: AuditActor, target?: { kind: string; id: string; name: string }) => void;
  backOff: (seconds: number) => void;
}

/**
 * Checks a sign-in: a 429 with the wait (`retryAfterS`) while the limiter holds this account and
 * address back (before the password is checked: a blocked guess costs no scrypt and tells
 * nothing), a 401 for a wrong email or password and for a suspended account. Sign-ins are in the
 * trail, failed ones too (named by the email tried; the limiter bounds them): `watch` is told who
 * tried before any refusal.
 */
export async function checkSignin(db: Db, limiter: SigninLimiter, input: Signin, ip: string, watch: SigninWatch): Promise<Whoami> {
  const { email, password } = input;
  const waitMs = await limiter.retryAfterMs(email, ip);
  if (waitMs > 0) {
    const waitS = Math.ceil(waitMs / 1000);
    watch.backOff(waitS);
    throw new HttpError(429, `Too many sign-in attempts. Try again in ${waitS} s.`);
  }
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`).limit(1);
  const ok = await verifyPassword(password, row?.passwordHash ?? DUMMY_HASH);
  if (!row || !ok) {
    watch.tried({ kind: 'anonymous', userId: null, username: email.trim().slice(0, 200), role: null });
    await limiter.failed(email, ip);
    throw new HttpError(401, 'Invalid email or password');
  }
  watch.tried({ kind: 'user', userId: row.id, username: row.username, role: row.role }, { kind: 'user', id: row.id, name: row.username });
  if (row.status !== 'active') throw new HttpError(401, 'This account is suspended');
  await limiter.succeeded(email, ip);
  return { _id: row.id, username: row.username, email: row.email, role: row.role };
}
