import type { FastifyInstance } from 'fastify';
import { bearer, sameToken } from '../http/bearer';
import type { MonitoringSettings } from '../config';
import { endpoints } from '../contract/api-routes';
import type { Database } from '../db/client';
import { HttpError } from '../http/errors';
import { serve } from '../http/serve';
import { monitoringConfig, prometheusTargets } from '../monitoring/targets';

/** What the web app needs to know about monitoring, and Prometheus's view of the fleet. */
export function registerMonitoring(app: FastifyInstance, database: Database, settings: MonitoringSettings): void {
  serve(app, endpoints['monitoring.config'], () => ({ result: monitoringConfig(settings) }));

  // Prometheus has no session cookie: it presents PROMETHEUS_SD_TOKEN as a bearer token.
  serve(app, endpoints['prometheus.targets'], async ({ request }) => {
    const expected = settings.prometheusSdToken;
    if (!expected) throw new HttpError(403, 'Service discovery is off: set PROMETHEUS_SD_TOKEN and give Prometheus the same token');
    if (!sameToken(bearer(request), expected)) throw new HttpError(401, 'A valid bearer token is required');
    return prometheusTargets(database);
  });
}
