import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Whoami } from '../contract/auth';
import type { z } from 'zod';
import type { CreatedPersonalToken, createTokenSchema, PersonalToken } from '../contract/tokens';
import { isUuid } from '../contract/ids';
import type { AuditScope } from '../audit/trail';
import { newPersonalToken } from '../auth/personal-tokens';
import type { Db } from '../db/client';
import { personalTokens } from '../db/schema';
import { conflict, notFound, pgConstraint } from '../http/errors';

type Row = typeof personalTokens.$inferSelect;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

const tokenToApi = (row: Row): PersonalToken => ({
  _id: row.id,
  name: row.name,
  prefix: row.prefix,
  scope: row.scope,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: iso(row.lastUsedAt),
  revokedAt: iso(row.revokedAt),
});

/** How the audit trail names a token: by its name. */
const tokenTarget = (row: Pick<Row, 'id' | 'name'>) => ({ kind: 'token', id: row.id, name: row.name });
const NAME_TAKEN = 'You already have a token with this name; revoke it or choose another name';

/** The actor's personal API tokens (issue 13), revoked ones too, newest first. */
export async function listTokens(db: Db, actor: Whoami): Promise<PersonalToken[]> {
  const rows = await db.select().from(personalTokens).where(eq(personalTokens.userId, actor._id)).orderBy(desc(personalTokens.createdAt), desc(personalTokens.id));
  return rows.map(tokenToApi);
}

/** Makes a token for the actor; its secret is in the answer (`token`) and nowhere else, ever. */
export async function createToken(tx: Db, input: z.output<typeof createTokenSchema>, actor: Whoami, audit: AuditScope): Promise<CreatedPersonalToken> {
  const { name, scope } = input;
  const secret = newPersonalToken();
  const [taken] = await tx
    .select({ id: personalTokens.id })
    .from(personalTokens)
    .where(and(eq(personalTokens.userId, actor._id), isNull(personalTokens.revokedAt), sql`lower(${personalTokens.name}) = ${name.toLowerCase()}`))
    .limit(1);
  if (taken) throw conflict(NAME_TAKEN, 'name');
  try {
    const [made] = await tx.insert(personalTokens).values({ userId: actor._id, name, scope, tokenHash: secret.tokenHash, prefix: secret.prefix }).returning();
    audit.target(tokenTarget(made!));
    return { ...tokenToApi(made!), token: secret.token };
  } catch (error) {
    // The same name made twice at the same moment meets the unique index.
    if (pgConstraint(error) === 'personal_tokens_user_name_idx') throw conflict(NAME_TAKEN, 'name');
    throw error;
  }
}

/**
 * Revokes one of the actor's tokens; the row stays, so records of its use still name it. Revoking
 * twice is fine: the first time stays the time it was revoked.
 */
export async function revokeToken(tx: Db, input: { id: string }, actor: Whoami, audit: AuditScope): Promise<PersonalToken> {
  const { id } = input;
  const [row] = isUuid(id) ? await tx.select().from(personalTokens).where(and(eq(personalTokens.id, id), eq(personalTokens.userId, actor._id))).limit(1) : [];
  if (!row) throw notFound(`You have no API token with id "${id}"`);
  audit.target(tokenTarget(row));
  const [updated] = await tx.update(personalTokens).set({ revokedAt: row.revokedAt ?? new Date() }).where(eq(personalTokens.id, id)).returning();
  return tokenToApi(updated!);
}
