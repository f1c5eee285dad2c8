import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { MetricsSettings } from '../config';
import { endpoints } from '../contract/api-routes';
import { serve } from '../http/serve';
import { HttpError } from '../http/errors';
import { bearer, sameToken } from '../http/bearer';
import { faultsOf } from '../ops/faults';
import { monitoringStatus } from '../ops/freshness-watch';
import { addMetricSource, httpRequestDuration, metricsRegistry } from '../ops/metrics';
import { outboxDepth } from '../ops/queue-depth';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * GET /metrics: Opsdeck's own metrics in the Prometheus text format (issue 12 §3), with an
 * optional bearer token (METRICS_TOKEN). Off (METRICS_ENABLED=0): no route, so /metrics is a 404
 * like any other path that is not a page of the app. Also times every HTTP request by its route
 * pattern, and gives the registry this app's gauges (queue depth, pool, leader, freshness,
 * storage faults).
 */
export function registerSelfMetrics(app: FastifyInstance, settings: MetricsSettings): void {
  app.addHook('onResponse', async (request, reply) => {
    // The pattern ("/api/servers/:id"), never the raw path: one series per route, not per id.
    const route = request.routeOptions.url ?? 'not_found';
    const method = METHODS.has(request.method) ? request.method : 'other';
    httpRequestDuration.observe({ method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  const { database } = app;
  const pool = database.kind === 'postgres' ? (database.db as unknown as { $client: pg.Pool }).$client : null;
  const remove = addMetricSource({
    queueDepth: () => outboxDepth(database),
    pool: () => (pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null),
    leader: () => app.leader.isLeader,
    faults: () => faultsOf(database).current().map((f) => f.reason),
    freshness: async () => {
      const status = await monitoringStatus(database, app.monitoring, app.freshness, app.leader.isLeader);
      return status.status === 'off' ? null : { fresh: status.status === 'ok', staleServers: status.staleServers };
    },
  });
  app.addHook('onClose', async () => remove());

  if (!settings.enabled) return;
  serve(app, endpoints['ops.metrics'], async ({ request, reply }) => {
    if (settings.token && !sameToken(bearer(request), settings.token)) {
      void reply.header('www-authenticate', 'Bearer realm="opsdeck metrics"');
      throw new HttpError(401, 'A valid bearer token is required (METRICS_TOKEN)');
    }
    const body = await metricsRegistry.metrics();
    return reply.type(metricsRegistry.contentType).send(body);
  });
}
