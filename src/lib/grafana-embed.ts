/**
 * URLs of single Grafana panels (`/d-solo/…`), in the "Embed URL form" of shared/PANELS.md plus
 * the job and data source variables, for when MonitoringConfig.grafanaUrl is set and panels are
 * embedded instead of drawn. docs/grafana.md says how Grafana is set up for them.
 */
import { LINUX_DASHBOARD_UID, WINDOWS_DASHBOARD_UID } from '../../server/contract/grafana';

/** SPEC §2: embedded panels elsewhere (pinned widgets) default to 450×200; in tabs width is 100 %. */
export const EMBED_DEFAULT_SIZE = { width: 450, height: 200 } as const;

export interface GrafanaPanelUrlInput {
  grafanaUrl: string;
  os: 'linux' | 'windows';
  ipaddress: string;
  agentPort: number;
  panelId: number;
  /**
   * Unix milliseconds, as Grafana's from/to take them, or Grafana's relative form (`now-1h`,
   * `now`): a preset range then moves with Grafana's own refresh instead of reloading the frame.
   */
  from: number | string;
  to: number | string;
  theme: 'light' | 'dark';
  /** Grafana refresh (10s, 30s, 1m, 5m); PANELS.md's Linux form carries it, the Windows form does not. */
  refresh?: string;
  /** Prometheus job of the exporters (`var-job`; dashboard 1860 filters every query on it). */
  job: string;
  /** Grafana data source uid or name (`var-datasource`), `default` for Grafana's default. */
  datasource: string;
}

/** `ip:port`, with an IPv6 address in brackets as Prometheus writes instance labels. */
export function exporterInstance(ipaddress: string, port: number): string {
  return ipaddress.includes(':') ? `[${ipaddress}]:${port}` : `${ipaddress}:${port}`;
}

// Values are URI-encoded except ':' and brackets, so the instance reads as PANELS.md writes it.
const enc = (v: string | number) => encodeURIComponent(String(v)).replace(/%3A/gi, ':').replace(/%5B/gi, '[').replace(/%5D/gi, ']');
const query = (pairs: [string, string | number | undefined][]) =>
  pairs
    .filter((pair): pair is [string, string | number] => pair[1] !== undefined)
    .map(([k, v]) => `${k}=${enc(v)}`)
    .join('&');

export function grafanaPanelUrl(o: GrafanaPanelUrlInput): string {
  const base = o.grafanaUrl.trim().replace(/\/+$/, '');
  const instance = exporterInstance(o.ipaddress, o.agentPort);
  const from = typeof o.from === 'number' ? Math.round(o.from) : o.from;
  const to = typeof o.to === 'number' ? Math.round(o.to) : o.to;
  if (o.os === 'windows') {
    // 14694 has no job variable; its data source variable is the one `opsdeck grafana-dashboards` adds.
    return `${base}/d-solo/${WINDOWS_DASHBOARD_UID}/windows-exporter-dashboard?${query([
      ['var-datasource', o.datasource],
      ['var-server', instance],
      ['from', from],
      ['to', to],
      ['theme', o.theme],
      ['panelId', o.panelId],
    ])}`;
  }
  return `${base}/d-solo/${LINUX_DASHBOARD_UID}/node-exporter-full?${query([
    ['orgId', 1],
    ['var-datasource', o.datasource],
    ['var-job', o.job],
    ['var-node', instance],
    ['from', from],
    ['to', to],
    ['theme', o.theme],
    ['panelId', o.panelId],
    ['refresh', o.refresh ?? '10s'],
  ])}`;
}
