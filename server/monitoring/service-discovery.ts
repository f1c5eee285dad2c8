import type { MonitoringSettings } from '../config';
import type { MonitoringConfig } from '../contract/servers';
import type { Database } from '../db/client';
import { prometheusInstance } from './prometheus-collector';

/** Prometheus HTTP service discovery target group (https://prometheus.io/docs/prometheus/latest/http_sd/). */
export interface TargetGroup {
  targets: string[];
  labels: Record<string, string>;
}

/** Every active server whose agent is set up, as Prometheus scrapes and labels it. */
export async function scrapeTargets(database: Database): Promise<TargetGroup[]> {
  const rows = await database.query<{ id: string; hostname: string; ipaddress: string; agent_port: number; operating_system: string }>(
    `select id, hostname, ipaddress, agent_port, operating_system from servers where status = 'active' and is_agent_configured order by created_at`,
  );
  return rows.map((r) => ({
    targets: [prometheusInstance(r.ipaddress, r.agent_port)],
    labels: { opsdeck_server_id: r.id, hostname: r.hostname, os: r.operating_system },
  }));
}

/** What the web app needs to know about monitoring. */
export function monitoringConfig(settings: MonitoringSettings): MonitoringConfig {
  return {
    mode: settings.prometheusUrl ? 'prometheus' : 'builtin',
    scrapeIntervalSeconds: settings.scrapeIntervalS,
    grafanaUrl: settings.grafanaUrl ?? null,
    grafanaJob: settings.grafanaJob,
    grafanaDatasource: settings.grafanaDatasource,
    retentionHours: settings.retentionHours,
  };
}
