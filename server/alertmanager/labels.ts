import { parseAlertText, toPlainText } from '../contract/alert-text';

/** One alert as Alertmanager's API v2 takes it (POST /api/v2/alerts, `postableAlert`). */
export interface PostableAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL: string;
}

/** What the push reads of an Opsdeck alert. */
export type PushedAlertRow = {
  id: string;
  server_id: string | null;
  hostname: string;
  instance: string;
  alertname: string;
  description: string;
  summary: string;
  type: string;
  severity: string;
  status: 'firing' | 'resolved' | 'snoozed';
  service: string | null;
  mountpoint: string | null;
  created_at: Date;
  resolved_at: Date | null;
};

/**
 * The annotation that marks an alert as Opsdeck's own. The receiver drops alerts that carry it:
 * an Alertmanager routing everything to Opsdeck's receiver would otherwise hand Opsdeck back its
 * own alerts as new ones (the loop's other half; the push never sends received alerts).
 */
export const OPSDECK_ALERT_ANNOTATION = 'opsdeck_alert_id';

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(publicUrl|id|alertname|type|hostname|serverId)\}/g, (_, key: string) => (key === 'publicUrl' ? values.publicUrl! : encodeURIComponent(values[key] ?? '')));

/**
 * Labels are identity in Alertmanager (grouping, silences, inhibition): the issue's eight, each
 * only when it has a value (an empty label is no label in Prometheus' model). Annotations carry
 * the text: the description as plain text (ours is markdown with only our emphasis as markup).
 */
export function toPostable(row: PushedAlertRow, opts: { publicUrl: string; runbookUrl: string; validUntil: Date }): PostableAlert {
  const labels: Record<string, string> = {};
  const put = (name: string, value: string | null | undefined) => {
    if (value) labels[name] = value;
  };
  put('alertname', row.alertname);
  put('severity', row.severity);
  put('hostname', row.hostname);
  put('instance', row.instance);
  put('server_id', row.server_id);
  put('type', row.type);
  put('service', row.service);
  put('mountpoint', row.mountpoint);
  const link = `${opts.publicUrl}/notifications/show/${encodeURIComponent(row.id)}`;
  const annotations: Record<string, string> = {
    summary: row.summary || `${row.alertname} on ${row.hostname}`,
    description: toPlainText(parseAlertText(row.description)),
    runbook_url: fill(opts.runbookUrl, { publicUrl: opts.publicUrl, id: row.id, alertname: row.alertname, type: row.type, hostname: row.hostname, serverId: row.server_id ?? '' }),
    [OPSDECK_ALERT_ANNOTATION]: row.id,
  };
  const ends = row.status === 'resolved' ? (row.resolved_at ?? new Date()) : opts.validUntil;
  return { labels, annotations, startsAt: row.created_at.toISOString(), endsAt: ends.toISOString(), generatorURL: link };
}

/** A stable key of a label set (Alertmanager's identity of an alert). */
export const labelKey = (labels: Record<string, string>) =>
  JSON.stringify(
    Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
