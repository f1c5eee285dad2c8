/**
 * The Grafana dashboards the console embeds (shared/PANELS.md): their uids, and the template
 * variables its embed URLs set. `opsdeck grafana-dashboards` provisions the dashboards under
 * these uids and checks the variables are there; src/lib/grafana-embed.ts builds the URLs.
 */

/** Node Exporter Full (Grafana 1860): the uid the public dashboard ships with. */
export const LINUX_DASHBOARD_UID = 'rYdddlPWk';
/**
 * Windows Exporter Dashboard (Grafana 14694): the uid its author's export carries, so importing
 * 14694 by hand keeps it; `opsdeck grafana-dashboards` provisions it under the same uid.
 */
export const WINDOWS_DASHBOARD_UID = '7UlnHoGZz';

/** Template variables the embed URLs set (`var-<name>`), per dashboard. */
export const EMBED_VARIABLES = {
  linux: ['datasource', 'job', 'node'],
  windows: ['datasource', 'server'],
} as const;
