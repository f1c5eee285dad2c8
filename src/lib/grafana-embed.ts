/**
 * URLs of single Grafana panels (`/d-solo/…`), in the "Embed URL form" of shared/PANELS.md,
 * for when MonitoringConfig.grafanaUrl is set and panels are embedded instead of drawn.
 */

/** Node Exporter Full (Grafana 1860): the uid the public dashboard ships with. */
export const LINUX_DASHBOARD_UID = 'rYdddlPWk';
/**
 * Windows Exporter Dashboard (Grafana 14694). Its published uid could not be checked here, so
 * Opsdeck names one: import 14694 with this uid (Grafana's import form lets you set it).
 */
export const WINDOWS_DASHBOARD_UID = 'windows-exporter';

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
    return `${base}/d-solo/${WINDOWS_DASHBOARD_UID}/windows-exporter-dashboard?${query([
      ['var-server', instance],
      ['from', from],
      ['to', to],
      ['theme', o.theme],
      ['panelId', o.panelId],
    ])}`;
  }
  return `${base}/d-solo/${LINUX_DASHBOARD_UID}/node-exporter-full?${query([
    ['orgId', 1],
    ['var-node', instance],
    ['from', from],
    ['to', to],
    ['theme', o.theme],
    ['panelId', o.panelId],
    ['refresh', o.refresh ?? '10s'],
  ])}`;
}
