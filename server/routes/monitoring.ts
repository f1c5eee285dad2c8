import type { FastifyInstance } from 'fastify';
import { bearer, sameToken } from '../http/bearer';
import type { MonitoringSettings } from '../config';
import type { MonitoringConfig } from '../contract/servers';
import type { Database } from '../db/client';
import { HttpError } from '../http/errors';
import { prometheusInstance } from '../monitoring/prometheus-collector';
import { requirePermission } from '../http/session';

/** Prometheus HTTP service discovery target group (https://prometheus.io/docs/prometheus/latest/http_sd/). */
export interface TargetGroup {
  targets: string[];
  labels: Record<string, string>;
}

/** The `ip:port` Prometheus scrapes and labels as `instance` (one rule for both modes). */
export const targetAddress = prometheusInstance;

/** What the web app needs to know about monitoring, and Prometheus's view of the fleet. */
export function registerMonitoring(app: FastifyInstance, database: Database, settings: MonitoringSettings): void {
  app.get('/api/monitoring/config', { preHandler: requirePermission('read') }, async () => {
    const result: MonitoringConfig = {
      mode: settings.prometheusUrl ? 'prometheus' : 'builtin',
      scrapeIntervalSeconds: settings.scrapeIntervalS,
      grafanaUrl: settings.grafanaUrl ?? null,
      grafanaJob: settings.grafanaJob,
      grafanaDatasource: settings.grafanaDatasource,
      retentionHours: settings.retentionHours,
    };
    return { result };
  });

  // Prometheus has no session cookie: it presents PROMETHEUS_SD_TOKEN as a bearer token.
  app.get('/api/prometheus/targets', async (request) => {
    const expected = settings.prometheusSdToken;
    if (!expected) throw new HttpError(403, 'Service discovery is off: set PROMETHEUS_SD_TOKEN and give Prometheus the same token');
    if (!sameToken(bearer(request), expected)) throw new HttpError(401, 'A valid bearer token is required');
    const rows = await database.query<{ id: string; hostname: string; ipaddress: string; agent_port: number; operating_system: string }>(
      `select id, hostname, ipaddress, agent_port, operating_system from servers where status = 'active' and is_agent_configured order by created_at`,
    );
    const groups: TargetGroup[] = rows.map((r) => ({
      targets: [targetAddress(r.ipaddress, r.agent_port)],
      labels: { opsdeck_server_id: r.id, hostname: r.hostname, os: r.operating_system },
    }));
    return groups;
  });
}
