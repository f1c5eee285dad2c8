import type { FastifyInstance, FastifyRequest } from 'fastify';
import { audited, auditTarget } from '../audit/trail';
import { endpoints } from '../contract/api-routes';
import { SLUG } from '../contract/status-pages';
import type { Database } from '../db/client';
import { notFound } from '../http/errors';
import { serve } from '../http/serve';
import type { Monitoring } from '../monitoring/monitoring';
import { postStatusUpdate, resolveStatusIncident } from '../status/incidents';
import { findStatusPage, publicStatusAt, statusPageAuditTarget, statusPagesResource } from '../status/pages';
import { PublicStatusCache } from '../status/public-cache';
import { PublicStatusLimiter } from '../status/public-limit';
import { registerResource } from './resource';

/**
 * Status pages (issue 16 §3, docs/status-pages.md): the resource `status-pages` (admins compose,
 * server/status/pages.ts), incident posts (status.post / status.resolve, server/status/incidents.ts),
 * and the public view at GET /api/public/status/{slug}, the one route here that needs no sign-in:
 * kept a few seconds per page (`PublicStatusCache`, dropped on every change made here) and, with
 * the page itself at /status/{slug}, limited per address (`PublicStatusLimiter`).
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

  registerResource(app, db, statusPagesResource(db, () => cache.clear()));

  /** The page is found before the input is read: an unknown page is a 404, a refused post is recorded against the page. */
  const page = { before: async ({ params, request }: { params: { id: string }; request: FastifyRequest }) => auditTarget(request, statusPageAuditTarget(await findStatusPage(db, params.id))) };

  serve(
    app,
    endpoints['statusPages.post'],
    async ({ params, body, user, request }) => {
      const posted = await audited(request, db, (tx, audit) => postStatusUpdate(tx, { id: params.id, ...body }, user, audit));
      cache.clear();
      return { result: posted };
    },
    page,
  );

  serve(
    app,
    endpoints['statusPages.resolve'],
    async ({ params, body, user, request }) => {
      const resolved = await audited(request, db, (tx, audit) => resolveStatusIncident(tx, { id: params.id, ...body }, user, audit));
      cache.clear();
      return { result: resolved };
    },
    page,
  );

  /** The public view: no sign-in, only what the page shows (contract/status-pages.ts publicStatusSchema). */
  serve(app, endpoints['statusPages.public'], async ({ params, reply }) => {
    const slug = params.slug.toLowerCase();
    const view = SLUG.test(slug) ? await cache.get(slug, () => publicStatusAt(database, monitoring.checks.store, slug)) : null;
    if (!view) throw notFound('No status page at this address');
    void reply.header('cache-control', 'no-store');
    return { result: view };
  });
}
