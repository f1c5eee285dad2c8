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

/** The fields of an Opsdeck alert that become Alertmanager labels, however the caller holds the alert. */
export interface LabelSource {
  alertname: string;
  severity: string;
  hostname: string;
  instance: string;
  serverId?: string | null;
  type?: string | null;
  service?: string | null;
  mountpoint?: string | null;
}

/**
 * Alertmanager's label set of an Opsdeck alert, the one builder for the push (POST
 * /api/v2/alerts) and the webhook channel's payload (and PagerDuty's custom details), so a
 * receiver sees the same labels whichever way an alert reached it. Labels are identity in
 * Alertmanager (grouping, silences, inhibition): the issue's eight, each only when it has a value
 * (an empty label is no label in Prometheus' model).
 */
export function alertmanagerLabels(a: LabelSource): Record<string, string> {
  const labels: Record<string, string> = {};
  const put = (name: string, value: string | null | undefined) => {
    if (typeof value === 'string' && value !== '') labels[name] = value;
  };
  put('alertname', a.alertname);
  put('severity', a.severity);
  put('hostname', a.hostname);
  put('instance', a.instance);
  put('server_id', a.serverId);
  put('type', a.type);
  put('service', a.service);
  put('mountpoint', a.mountpoint);
  return labels;
}

/** Annotations carry the text: the description as plain text (ours is markdown with only our emphasis as markup). */
export function toPostable(row: PushedAlertRow, opts: { publicUrl: string; runbookUrl: string; validUntil: Date }): PostableAlert {
  const labels = alertmanagerLabels({ ...row, serverId: row.server_id });
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
