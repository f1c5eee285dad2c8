import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { aliasNameSchema, MAX_ALIASES, putAliasSchema, type Alias } from '../contract/aliases';
import type { Db } from '../db/client';
import { commandAliases } from '../db/schema';
import { conflict, fromZod, notFound } from '../http/errors';
import { requirePermission, requireUser } from '../http/session';
import { audited, auditTarget } from '../audit/trail';

type Row = typeof commandAliases.$inferSelect;
const toApi = (row: Row): Alias => ({ _id: row.id, name: row.name, line: row.line, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() });

/** How the audit trail names an alias: by its name. */
const aliasTarget = (row: Row) => ({ kind: 'alias', id: row.id, name: row.name });

function parseName(raw: string): string {
  const parsed = aliasNameSchema.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error, 'name');
  return parsed.data;
}

/**
 * Each person's command aliases (issue 13): `GET /api/aliases` lists your own, `PUT
 * /api/aliases/{name}` with `{line}` creates or replaces one (201 / 200), `DELETE
 * /api/aliases/{name}` removes it. Nobody sees or changes another person's aliases.
 */
export function registerAliases(app: FastifyInstance, db: Db): void {
  app.get('/api/aliases', { preHandler: requirePermission('read') }, async (request): Promise<{ result: Alias[] }> => {
    const user = requireUser(request);
    const rows = await db.select().from(commandAliases).where(eq(commandAliases.userId, user._id)).orderBy(asc(commandAliases.name));
    return { result: rows.map(toApi) };
  });

  app.put<{ Params: { name: string } }>('/api/aliases/:name', { preHandler: requirePermission('read') }, async (request, reply): Promise<{ result: Alias }> => {
    const user = requireUser(request);
    const name = parseName(request.params.name);
    const body = putAliasSchema.safeParse(request.body ?? {});
    if (!body.success) throw fromZod(body.error);
    const mine = eq(commandAliases.userId, user._id);
    const [existing] = await db.select().from(commandAliases).where(and(mine, eq(commandAliases.name, name))).limit(1);
    if (existing) {
      auditTarget(request, aliasTarget(existing));
      const [row] = await audited(request, db, (tx) => tx.update(commandAliases).set({ line: body.data.line, updatedAt: sql`now()` }).where(eq(commandAliases.id, existing.id)).returning());
      return { result: toApi(row!) };
    }
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(commandAliases).where(mine);
    if (Number(n) >= MAX_ALIASES) throw conflict(`name: you have ${MAX_ALIASES} aliases, the most one person may keep; remove one first`, 'name');
    // A second request for the same new name at the same moment meets the unique index: it updates.
    const row = await audited(request, db, async (tx) => {
      const [made] = await tx
        .insert(commandAliases)
        .values({ userId: user._id, name, line: body.data.line })
        .onConflictDoUpdate({ target: [commandAliases.userId, commandAliases.name], set: { line: body.data.line, updatedAt: sql`now()` } })
        .returning();
      auditTarget(request, aliasTarget(made!));
      return made;
    });
    reply.status(201);
    return { result: toApi(row!) };
  });

  app.delete<{ Params: { name: string } }>('/api/aliases/:name', { preHandler: requirePermission('read') }, async (request): Promise<{ result: Alias }> => {
    const user = requireUser(request);
    const name = parseName(request.params.name);
    const row = await audited(request, db, async (tx) => {
      const [gone] = await tx
        .delete(commandAliases)
        .where(and(eq(commandAliases.userId, user._id), eq(commandAliases.name, name)))
        .returning();
      if (!gone) throw notFound(`You have no alias "${name}"`);
      auditTarget(request, aliasTarget(gone));
      return gone;
    });
    return { result: toApi(row) };
  });
}
