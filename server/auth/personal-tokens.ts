import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Whoami } from '../contract/auth';
import { PERSONAL_TOKEN_PREFIX, type TokenScope } from '../contract/tokens';
import type { Db } from '../db/client';
import { personalTokens, users } from '../db/schema';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the caller authenticated with a personal API token instead of a session. */
    apiToken: { id: string; name: string; scope: TokenScope } | null;
  }
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const SHAPE = /^odt_[A-Za-z0-9_-]{40,60}$/;

/** A new token: the secret (shown once), its hash (stored) and a prefix to tell tokens apart. */
export function newPersonalToken(): { token: string; tokenHash: string; prefix: string } {
  const token = PERSONAL_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, tokenHash: hash(token), prefix: token.slice(0, PERSONAL_TOKEN_PREFIX.length + 6) };
}

/**
 * The personal token of `Authorization: Bearer odt_…`, or undefined when the request carries none
 * (no Authorization, or another kind of bearer: agent keys `sbk_…`, Prometheus's SD token).
 */
export function personalTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  const m = header ? /^Bearer\s+(odt_\S*)$/i.exec(header) : null;
  return m?.[1];
}

/** The token's owner (active) and the token, or null when it is malformed, unknown, revoked or its owner suspended. */
export async function loadPersonalToken(db: Db, token: string): Promise<{ user: Whoami; token: { id: string; name: string; scope: TokenScope } } | null> {
  if (!SHAPE.test(token)) return null;
  const [row] = await db
    .select({ id: personalTokens.id, name: personalTokens.name, scope: personalTokens.scope, lastUsedAt: personalTokens.lastUsedAt, _id: users.id, username: users.username, email: users.email, role: users.role, status: users.status })
    .from(personalTokens)
    .innerJoin(users, eq(users.id, personalTokens.userId))
    .where(and(eq(personalTokens.tokenHash, hash(token)), isNull(personalTokens.revokedAt)))
    .limit(1);
  if (!row || row.status !== 'active') return null;
  // Last use to the minute: one write a minute per token, not one per call.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await db.update(personalTokens).set({ lastUsedAt: sql`now()` }).where(eq(personalTokens.id, row.id));
  }
  return { user: { _id: row._id, username: row.username, email: row.email, role: row.role }, token: { id: row.id, name: row.name, scope: row.scope } };
}
