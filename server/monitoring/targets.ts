import type { MonitoringSettings } from '../config';
import type { MonitoringConfig, PrometheusTargetGroup } from '../contract/servers';
import type { Database } from '../db/client';
import { prometheusInstance } from './prometheus-collector';

/** The servers Prometheus scrapes: active, agent-configured ones, oldest first, each labelled with its id, hostname and OS. */
export async function prometheusTargets(database: Database): Promise<PrometheusTargetGroup[]> {
  const rows = await database.query<{ id: string; hostname: string; ipaddress: string; agent_port: number; operating_system: string }>(
    `select id, hostname, ipaddress, agent_port, operating_system from servers where status = 'active' and is_agent_configured order by created_at`,
  );
  return rows.map((r) => ({
    targets: [prometheusInstance(r.ipaddress, r.agent_port)],
    labels: { opsdeck_server_id: r.id, hostname: r.hostname, os: r.operating_system },
  }));
}

/** What the web app needs to know about monitoring: the mode, the scrape interval, Grafana's links, the retention. */
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
