import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createTokenSchema, type CreatedPersonalToken, type PersonalToken } from '../contract/tokens';
import type { Db } from '../db/client';
import { personalTokens } from '../db/schema';
import { audited, auditTarget } from '../audit/trail';
import { newPersonalToken } from '../auth/personal-tokens';
import { conflict, forbidden, fromZod, notFound, pgConstraint } from '../http/errors';
import { requirePermission, requireUser } from '../http/session';
import { isUuid } from '../contract/ids';

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

/**
 * Personal API tokens (issue 13), each person's own: `GET /api/auth/tokens` lists yours (revoked
 * ones too, with when), `POST` makes one and answers its secret once, `DELETE …/{id}` revokes it
 * (the row stays, so records of its use still name it). New tokens are made from a signed-in
 * session only: a token cannot breed tokens that outlive its revocation.
 */
export function registerTokens(app: FastifyInstance, db: Db): void {
  app.get('/api/auth/tokens', { preHandler: requirePermission('read') }, async (request) => {
    const me = requireUser(request);
    const rows = await db.select().from(personalTokens).where(eq(personalTokens.userId, me._id)).orderBy(desc(personalTokens.createdAt), desc(personalTokens.id));
    return { result: { data: rows.map(tokenToApi), count: rows.length } };
  });

  app.post('/api/auth/tokens', { preHandler: requirePermission('read') }, async (request, reply) => {
    const me = requireUser(request);
    if (request.apiToken) throw forbidden('Personal API tokens are made from a signed-in session, not with another token');
    const parsed = createTokenSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const { name, scope } = parsed.data;
    const secret = newPersonalToken();
    try {
      const row = await audited(request, db, async (tx) => {
        const [taken] = await tx
          .select({ id: personalTokens.id })
          .from(personalTokens)
          .where(and(eq(personalTokens.userId, me._id), isNull(personalTokens.revokedAt), sql`lower(${personalTokens.name}) = ${name.toLowerCase()}`))
          .limit(1);
        if (taken) throw conflict(NAME_TAKEN, 'name');
        const [made] = await tx.insert(personalTokens).values({ userId: me._id, name, scope, tokenHash: secret.tokenHash, prefix: secret.prefix }).returning();
        auditTarget(request, tokenTarget(made!));
        return made!;
      });
      const result: CreatedPersonalToken = { ...tokenToApi(row), token: secret.token };
      return reply.status(201).send({ result });
    } catch (error) {
      if (pgConstraint(error) === 'personal_tokens_user_name_idx') throw conflict(NAME_TAKEN, 'name');
      throw error;
    }
  });

  // Revoking twice is fine: the first time stays the time it was revoked.
  app.delete<{ Params: { id: string } }>('/api/auth/tokens/:id', { preHandler: requirePermission('read') }, async (request) => {
    const me = requireUser(request);
    const id = request.params.id;
    const [row] = isUuid(id) ? await db.select().from(personalTokens).where(and(eq(personalTokens.id, id), eq(personalTokens.userId, me._id))).limit(1) : [];
    if (!row) throw notFound(`You have no API token with id "${id}"`);
    auditTarget(request, tokenTarget(row));
    const updated = await audited(request, db, async (tx) => (await tx.update(personalTokens).set({ revokedAt: row.revokedAt ?? new Date() }).where(eq(personalTokens.id, id)).returning())[0]!);
    return { result: tokenToApi(updated) };
  });
}
