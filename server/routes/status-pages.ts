import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  createStatusPageSchema,
  SLUG,
  statusPostInputSchema,
  statusResolveInputSchema,
  titleOf,
  updateStatusPageSchema,
  type StatusPage,
} from '../contract/status-pages';
import type { Database, Db } from '../db/client';
import { checks, servers, statusIncidents, statusPages, statusPosts } from '../db/schema';
import { audited, auditTarget } from '../audit/trail';
import { badRequest, conflict, fromZod, notFound } from '../http/errors';
import { requirePermission } from '../http/session';
import type { Monitoring } from '../monitoring/monitoring';
import { PublicStatusCache } from '../status/public-cache';
import { PublicStatusLimiter } from '../status/public-limit';
import { publicStatus } from '../status/public-view';
import { registerResource } from './resource';
import { isUuid } from '../contract/ids';

type PageRow = typeof statusPages.$inferSelect;
type Groups = PageRow['groups'];

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

async function slugTaken(db: Db, slug: string, exceptId?: string): Promise<boolean> {
  return (await db.select({ id: statusPages.id }).from(statusPages).where(and(eq(statusPages.slug, slug), exceptId ? ne(statusPages.id, exceptId) : undefined)).limit(1)).length > 0;
}

/** Every item must name a server or a check that exists, once per page: a 400 naming the item otherwise. */
async function checkGroups(db: Db, groups: z.output<typeof createStatusPageSchema>['groups']): Promise<Groups> {
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

/**
 * Status pages (issue 16 §3, docs/status-pages.md): the resource `status-pages` (admins compose),
 * incident posts (status.post / status.resolve), and the public view at
 * GET /api/public/status/{slug}, the one route here that needs no sign-in: kept a few seconds per
 * page (`PublicStatusCache`, dropped on every change made here) and, with the page itself at
 * /status/{slug}, limited per address (`PublicStatusLimiter`).
 */
export function registerStatusPages(app: FastifyInstance, database: Database, monitoring: Monitoring, settings: { rateLimitPerMinute: number; cacheSeconds: number }): void {
  const db = database.db;
  const cache = new PublicStatusCache(settings.cacheSeconds * 1000);
  const limiter = new PublicStatusLimiter(settings.rateLimitPerMinute);
  // The page (the UI's index.html, served by the not-found handler) and its JSON, before anything else runs.
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url;
    if (path.startsWith('/status/') || path.startsWith('/api/public/status/')) await limiter.hook(request, reply);
  });

  async function enrich(items: StatusPage[]): Promise<StatusPage[]> {
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

  registerResource<PageRow, StatusPage>(app, db, {
    name: 'status-pages',
    table: statusPages,
    id: statusPages.id,
    toApi: pageToApi,
    enrich,
    read: 'read',
    target: (row) => ({ kind: 'status_page', id: row.id, name: row.slug }),
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
      // Its slug may be kept as "no page" meanwhile.
      after: async (_row, { afterCommit }) => afterCommit(() => cache.clear()),
      async prepare(input: z.output<typeof createStatusPageSchema>) {
        return { input, groups: await checkGroups(db, input.groups) };
      },
      async toRow({ input, groups }: { input: z.output<typeof createStatusPageSchema>; groups: Groups }, { db: tx, user }) {
        if (await slugTaken(tx, input.slug)) throw badRequest(`slug: another status page already has the slug "${input.slug}"`, 'slug');
        return { slug: input.slug, title: input.title, description: input.description ?? '', groups, createdBy: user._id };
      },
    },
    update: {
      permission: 'status.write',
      schema: updateStatusPageSchema,
      async prepare(input: z.output<typeof updateStatusPageSchema>) {
        return { input, groups: input.groups ? await checkGroups(db, input.groups) : undefined };
      },
      async toRow({ input, groups }: { input: z.output<typeof updateStatusPageSchema>; groups?: Groups }, existing, { db: tx }) {
        if (input.slug !== undefined && (await slugTaken(tx, input.slug, existing.id))) throw badRequest(`slug: another status page already has the slug "${input.slug}"`, 'slug');
        return {
          ...(input.slug !== undefined ? { slug: input.slug } : {}),
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(groups ? { groups } : {}),
          updatedAt: new Date(),
        };
      },
      after: async (_row, _input, { afterCommit }) => afterCommit(() => cache.clear()),
    },
    remove: { permission: 'status.write', after: async (_row, { afterCommit }) => afterCommit(() => cache.clear()) },
  });

  const findPage = async (id: string): Promise<PageRow> => {
    const row = isUuid(id) ? (await db.select().from(statusPages).where(eq(statusPages.id, id)).limit(1))[0] : undefined;
    if (!row) throw notFound(`No status page with id "${id}"`);
    return row;
  };

  /** status.post: adds an update to the page's open incident, or opens one with it. */
  app.post<{ Params: { id: string } }>('/api/status-pages/post/:id', { preHandler: requirePermission('status.post') }, async (request, reply) => {
    const page = await findPage(request.params.id);
    auditTarget(request, { kind: 'status_page', id: page.id, name: page.slug });
    const parsed = statusPostInputSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const { body, title } = parsed.data;
    const result = await audited(request, db, async (tx) => {
      let [incident] = await tx.select().from(statusIncidents).where(and(eq(statusIncidents.pageId, page.id), isNull(statusIncidents.resolvedAt))).limit(1);
      const opened = !incident;
      if (!incident) [incident] = await tx.insert(statusIncidents).values({ pageId: page.id, title: title ?? titleOf(body) }).returning();
      else if (title) [incident] = await tx.update(statusIncidents).set({ title }).where(eq(statusIncidents.id, incident.id)).returning();
      const [post] = await tx.insert(statusPosts).values({ incidentId: incident!.id, body, createdBy: request.user!._id }).returning();
      return { incident: incident!, post: post!, opened };
    });
    cache.clear();
    reply.status(201);
    return {
      result: { incident: { title: result.incident.title, startedAt: result.incident.createdAt.toISOString(), resolvedAt: null }, post: { at: result.post.createdAt.toISOString(), body }, opened: result.opened },
    };
  });

  /** status.resolve: closes the page's open incident, with an optional last update. */
  app.post<{ Params: { id: string } }>('/api/status-pages/resolve/:id', { preHandler: requirePermission('status.post') }, async (request) => {
    const page = await findPage(request.params.id);
    auditTarget(request, { kind: 'status_page', id: page.id, name: page.slug });
    const parsed = statusResolveInputSchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const text = parsed.data.body || 'This incident has been resolved.';
    const incident = await audited(request, db, async (tx) => {
      const now = new Date();
      const [closed] = await tx
        .update(statusIncidents)
        .set({ resolvedAt: now })
        .where(and(eq(statusIncidents.pageId, page.id), isNull(statusIncidents.resolvedAt)))
        .returning();
      if (!closed) throw conflict(`The status page "${page.slug}" has no open incident to resolve`);
      await tx.insert(statusPosts).values({ incidentId: closed.id, body: text, resolves: true, createdBy: request.user!._id, createdAt: now });
      return closed;
    });
    cache.clear();
    return { result: { incident: { title: incident.title, startedAt: incident.createdAt.toISOString(), resolvedAt: incident.resolvedAt!.toISOString() } } };
  });

  /** The public view: no sign-in, only what the page shows (contract/status-pages.ts publicStatusSchema). */
  app.get<{ Params: { slug: string } }>('/api/public/status/:slug', async (request, reply) => {
    const slug = request.params.slug.toLowerCase();
    const view = SLUG.test(slug)
      ? await cache.get(slug, async () => {
          const [page] = await db.select().from(statusPages).where(eq(statusPages.slug, slug)).limit(1);
          return page ? publicStatus(database, monitoring.checks.store, page) : null;
        })
      : null;
    if (!view) throw notFound('No status page at this address');
    void reply.header('cache-control', 'no-store');
    return { result: view };
  });
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
