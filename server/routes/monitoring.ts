import type { FastifyInstance } from 'fastify';
import { endpoints } from '../contract/api-routes';
import type { MonitoringSettings } from '../config';
import type { Database } from '../db/client';
import { bearer, sameToken } from '../http/bearer';
import { HttpError } from '../http/errors';
import { serve } from '../http/serve';
import { prometheusInstance } from '../monitoring/prometheus-collector';
import { monitoringConfig, scrapeTargets } from '../monitoring/service-discovery';

export type { TargetGroup } from '../monitoring/service-discovery';

/** The `ip:port` Prometheus scrapes and labels as `instance` (one rule for both modes). */
export const targetAddress = prometheusInstance;

/** What the web app needs to know about monitoring, and Prometheus's view of the fleet. */
export function registerMonitoring(app: FastifyInstance, database: Database, settings: MonitoringSettings): void {
  serve(app, endpoints['monitoring.config'], () => ({ result: monitoringConfig(settings) }));

  // Prometheus has no session cookie: it presents PROMETHEUS_SD_TOKEN as a bearer token.
  serve(app, endpoints['prometheus.targets'], async ({ request }) => {
    const expected = settings.prometheusSdToken;
    if (!expected) throw new HttpError(403, 'Service discovery is off: set PROMETHEUS_SD_TOKEN and give Prometheus the same token');
    if (!sameToken(bearer(request), expected)) throw new HttpError(401, 'A valid bearer token is required');
    return scrapeTargets(database);
  });
}
