import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isUuid } from '../contract/ids';
import { createStatusPageSchema, SLUG, updateStatusPageSchema, type PublicStatus, type StatusPage } from '../contract/status-pages';
import type { Database, Db } from '../db/client';
import { checks, servers, statusIncidents, statusPages } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import type { CheckStore } from '../monitoring/checks/check-store';
import type { ResourceDef } from '../routes/resource';
import { publicStatus } from './public-view';

export type PageRow = typeof statusPages.$inferSelect;
type Groups = PageRow['groups'];
type CreateInput = z.output<typeof createStatusPageSchema>;
type UpdateInput = z.output<typeof updateStatusPageSchema>;

function pageToApi(row: PageRow): StatusPage {
  return {
    _id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    groups: row.groups.map((g) => ({ name: g.name, items: g.items.map((i) => ({ ...i, name: null })) })),
    openIncident: null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** How the audit trail names a status page: by its slug. */
export const statusPageAuditTarget = (row: { id: string; slug: string }) => ({ kind: 'status_page', id: row.id, name: row.slug });

async function slugTaken(db: Db, slug: string, exceptId?: string): Promise<boolean> {
  return (await db.select({ id: statusPages.id }).from(statusPages).where(and(eq(statusPages.slug, slug), exceptId ? ne(statusPages.id, exceptId) : undefined)).limit(1)).length > 0;
}

/** Every item must name a server or a check that exists, once per page: a 400 naming the item otherwise. */
async function checkGroups(db: Db, groups: CreateInput['groups']): Promise<Groups> {
  const list = groups ?? [];
  const ids = (kind: 'server' | 'check') => [...new Set(list.flatMap((g) => g.items.filter((i) => i.kind === kind).map((i) => i.id.toLowerCase())))];
  const [serverIds, checkIds] = [ids('server'), ids('check')];
  const found = new Set<string>([
    ...(serverIds.length ? await db.select({ id: servers.id }).from(servers).where(inArray(servers.id, serverIds)) : []).map((r) => `server:${r.id}`),
    ...(checkIds.length ? await db.select({ id: checks.id }).from(checks).where(inArray(checks.id, checkIds)) : []).map((r) => `check:${r.id}`),
  ]);
  const seen = new Set<string>();
  list.forEach((g, gi) =>
    g.items.forEach((item, ii) => {
      const key = `${item.kind}:${item.id.toLowerCase()}`;
      const field = `groups.${gi}.items.${ii}.id`;
      if (!found.has(key)) throw badRequest(`${field}: no ${item.kind} with id "${item.id}"`, field);
      if (seen.has(key)) throw badRequest(`${field}: this ${item.kind} is already on the page`, field);
      seen.add(key);
    }),
  );
  return list.map((g) => ({ name: g.name ?? '', items: g.items.map((i) => ({ kind: i.kind, id: i.id.toLowerCase(), displayName: i.displayName, showAddress: i.showAddress ?? false })) }));
}

/** Adds what the console shows beside a page's own fields: its items' server or check names, its open incident's title. */
async function enrichPages(db: Db, items: StatusPage[]): Promise<StatusPage[]> {
  const all = items.flatMap((p) => p.groups.flatMap((g) => g.items));
  const serverIds = [...new Set(all.filter((i) => i.kind === 'server').map((i) => i.id))];
  const checkIds = [...new Set(all.filter((i) => i.kind === 'check').map((i) => i.id))];
  const [s, c, open] = await Promise.all([
    serverIds.length ? db.select({ id: servers.id, name: servers.hostname }).from(servers).where(inArray(servers.id, serverIds)) : [],
    checkIds.length ? db.select({ id: checks.id, name: checks.name }).from(checks).where(inArray(checks.id, checkIds)) : [],
    db
      .select({ pageId: statusIncidents.pageId, title: statusIncidents.title })
      .from(statusIncidents)
      .where(
        and(
          inArray(
            statusIncidents.pageId,
            items.map((p) => p._id),
          ),
          isNull(statusIncidents.resolvedAt),
        ),
      ),
  ]);
  const names = new Map<string, string>([...s.map((r) => [`server:${r.id}`, r.name] as const), ...c.map((r) => [`check:${r.id}`, r.name] as const)]);
  return items.map((p) => ({
    ...p,
    groups: p.groups.map((g) => ({ ...g, items: g.items.map((i) => ({ ...i, name: names.get(`${i.kind}:${i.id}`) ?? null })) })),
    openIncident: open.find((o) => o.pageId === p._id)?.title ?? null,
  }));
}

/**
 * The resource `status-pages` (issue 16 §3, docs/status-pages.md): admins compose pages of
 * servers and checks under display names. `changed` runs once a change is committed (the public
 * view's cache is dropped; a new page's slug may have been kept as "no page" meanwhile).
 */
export function statusPagesResource(db: Db, changed: () => void): ResourceDef<PageRow, StatusPage> {
  return {
    name: 'status-pages',
    table: statusPages,
    id: statusPages.id,
    toApi: pageToApi,
    enrich: (items) => enrichPages(db, items),
    read: 'read',
    target: statusPageAuditTarget,
    conflicts: { status_pages_slug_idx: { field: 'slug', message: 'slug: another status page already has this slug' } },
    sortable: { createdAt: statusPages.createdAt, slug: statusPages.slug, title: statusPages.title },
    filterable: {
      slug: { column: statusPages.slug, ops: ['eq', 'contains'] },
      title: { column: statusPages.title, ops: ['contains'] },
    },
    search: [{ lower: statusPages.slug }, { lower: sql`lower(${statusPages.title})` }],
    defaultSort: { by: 'createdAt', direction: 'desc' },
    create: {
      permission: 'status.write',
      schema: createStatusPageSchema,
      after: async (_row, { afterCommit }) => afterCommit(changed),
      async prepare(input: CreateInput) {
        return { input, groups: await checkGroups(db, input.groups) };
      },
      async toRow({ input, groups }: { input: CreateInput; groups: Groups }, { db: tx, user }) {
        if (await slugTaken(tx, input.slug)) throw badRequest(`slug: another status page already has the slug "${input.slug}"`, 'slug');
        return { slug: input.slug, title: input.title, description: input.description ?? '', groups, createdBy: user._id };
      },
    },
    update: {
      permission: 'status.write',
      schema: updateStatusPageSchema,
      async prepare(input: UpdateInput) {
        return { input, groups: input.groups ? await checkGroups(db, input.groups) : undefined };
      },
      async toRow({ input, groups }: { input: UpdateInput; groups?: Groups }, existing, { db: tx }) {
        if (input.slug !== undefined && (await slugTaken(tx, input.slug, existing.id))) throw badRequest(`slug: another status page already has the slug "${input.slug}"`, 'slug');
        return {
          ...(input.slug !== undefined ? { slug: input.slug } : {}),
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(groups ? { groups } : {}),
          updatedAt: new Date(),
        };
      },
      after: async (_row, _input, { afterCommit }) => afterCommit(changed),
    },
    remove: { permission: 'status.write', after: async (_row, { afterCommit }) => afterCommit(changed) },
  };
}

/** The status page with this id, or a 404 naming the id. */
export async function findStatusPage(db: Db, id: string): Promise<PageRow> {
  const row = isUuid(id) ? (await db.select().from(statusPages).where(eq(statusPages.id, id)).limit(1))[0] : undefined;
  if (!row) throw notFound(`No status page with id "${id}"`);
  return row;
}

/** The public view of the page at this slug (already lower-cased and a valid slug), or null when there is none. */
export async function publicStatusAt(database: Database, checkStore: CheckStore, slug: string): Promise<PublicStatus | null> {
  const [page] = await database.db.select().from(statusPages).where(eq(statusPages.slug, slug)).limit(1);
  return page ? publicStatus(database, checkStore, page) : null;
}

/**
 * Whether `/status/<slug>` names a page: the app's HTML is served for it either way (the page
 * reads its content from the public API), but with 404 when there is none, so a monitor, a
 * crawler or a link checker pointed at a mistyped or deleted page is told so (docs/status-pages.md).
 */
export async function statusPageExists(database: Database, slug: string): Promise<boolean> {
  const s = slug.toLowerCase();
  if (!SLUG.test(s)) return false;
  const [page] = await database.db.select({ id: statusPages.id }).from(statusPages).where(eq(statusPages.slug, s)).limit(1);
  return !!page;
}
