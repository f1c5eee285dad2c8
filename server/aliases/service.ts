import { and, asc, count, eq, sql } from 'drizzle-orm';
import { MAX_ALIASES, type Alias, type PutAlias } from '../contract/aliases';
import type { Whoami } from '../contract/auth';
import type { AuditScope } from '../audit/trail';
import type { Db } from '../db/client';
import { commandAliases } from '../db/schema';
import { conflict, notFound } from '../http/errors';

type Row = typeof commandAliases.$inferSelect;
const toApi = (row: Row): Alias => ({ _id: row.id, name: row.name, line: row.line, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() });

/** How the audit trail names an alias: by its name. */
const aliasTarget = (row: Row) => ({ kind: 'alias', id: row.id, name: row.name });

/** Each person's command aliases (issue 13): nobody sees or changes another person's. */
export async function listAliases(db: Db, actor: Whoami): Promise<Alias[]> {
  const rows = await db.select().from(commandAliases).where(eq(commandAliases.userId, actor._id)).orderBy(asc(commandAliases.name));
  return rows.map(toApi);
}

/** Creates or replaces one of the actor's aliases; `created` says which (201 or 200). */
export async function putAlias(tx: Db, input: { name: string } & PutAlias, actor: Whoami, audit: AuditScope): Promise<{ alias: Alias; created: boolean }> {
  const mine = eq(commandAliases.userId, actor._id);
  const [existing] = await tx.select().from(commandAliases).where(and(mine, eq(commandAliases.name, input.name))).limit(1);
  if (existing) {
    audit.target(aliasTarget(existing));
    const [row] = await tx.update(commandAliases).set({ line: input.line, updatedAt: sql`now()` }).where(eq(commandAliases.id, existing.id)).returning();
    return { alias: toApi(row!), created: false };
  }
  const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(commandAliases).where(mine);
  if (Number(n) >= MAX_ALIASES) throw conflict(`name: you have ${MAX_ALIASES} aliases, the most one person may keep; remove one first`, 'name');
  // A second request for the same new name at the same moment meets the unique index: it updates.
  const [made] = await tx
    .insert(commandAliases)
    .values({ userId: actor._id, name: input.name, line: input.line })
    .onConflictDoUpdate({ target: [commandAliases.userId, commandAliases.name], set: { line: input.line, updatedAt: sql`now()` } })
    .returning();
  audit.target(aliasTarget(made!));
  return { alias: toApi(made!), created: true };
}

export async function removeAlias(tx: Db, input: { name: string }, actor: Whoami, audit: AuditScope): Promise<Alias> {
  const [gone] = await tx
    .delete(commandAliases)
    .where(and(eq(commandAliases.userId, actor._id), eq(commandAliases.name, input.name)))
    .returning();
  if (!gone) throw notFound(`You have no alias "${input.name}"`);
  audit.target(aliasTarget(gone));
  return toApi(gone);
}
