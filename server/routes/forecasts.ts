import type { FastifyInstance } from 'fastify';
import type { ServerForecasts } from '../contract/servers';
import type { Db } from '../db/client';
import { notFound } from '../http/errors';
import { requirePermission } from '../http/session';
import { eq, sql } from 'drizzle-orm';
import { serverForecasts, servers } from '../db/schema';
import { isUuid } from '../contract/ids';

/**
 * GET /api/servers/forecast/{id} (issue 16): when the server's disk and memory reach 100 % at the
 * trend of the last 6 hours, for the Disk and Memory tabs; each null without a forecast (too
 * little history, or not a server that is up).
 */
export function registerForecasts(app: FastifyInstance, db: Db): void {
  app.get<{ Params: { id: string } }>('/api/servers/forecast/:id', { preHandler: requirePermission('read') }, async (request) => {
    const { id } = request.params;
    const [server] = isUuid(id) ? await db.select({ id: servers.id }).from(servers).where(eq(servers.id, id)).limit(1) : [];
    if (!server) throw notFound(`No server with id "${id}"`);
    const rows = await db.select().from(serverForecasts).where(sql`${serverForecasts.serverId} = ${id}::uuid`);
    const one = (metric: 'disk' | 'memory') => {
      const r = rows.find((x) => x.metric === metric);
      return r
        ? { hoursLeft: r.hoursLeft, fullAt: r.fullAt?.toISOString() ?? null, slopePerHour: r.slopePerHour, fittedNow: r.fittedNow, points: r.points, computedAt: r.computedAt.toISOString() }
        : null;
    };
    const result: ServerForecasts = { disk: one('disk'), memory: one('memory') };
    return { result };
  });
}
