import type { alerts } from '../db/schema';

/** What a notification says about one alert. */
export type AlertForMessage = Pick<
  typeof alerts.$inferSelect,
  'id' | 'hostname' | 'instance' | 'alertname' | 'severity' | 'summary' | 'description' | 'mountpoint' | 'volume' | 'service' | 'createdAt' | 'resolvedAt'
>;

export type Transition = 'firing' | 'resolved';

export interface EmailMessage {
  subject: string;
  text: string;
}

export interface SlackMessage {
  /** Shown in notifications and by clients without blocks. */
  text: string;
  blocks: unknown[];
}

/** SPEC §2 route of the alert detail drawer. */
export function alertLink(publicUrl: string, alertId: string): string {
  return `${publicUrl}/notifications/show/${encodeURIComponent(alertId)}`;
}

const label = (t: Transition) => (t === 'firing' ? 'FIRING' : 'RESOLVED');
const utc = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();

function facts(alert: AlertForMessage, transition: Transition): [string, string][] {
  const rows: [string, string][] = [
    ['Host', `${alert.hostname} (${alert.instance})`],
    ['Alert', alert.alertname],
    ['Severity', alert.severity],
  ];
  if (alert.mountpoint) rows.push(['Mountpoint', alert.mountpoint]);
  if (alert.volume) rows.push(['Volume', alert.volume]);
  if (alert.service) rows.push(['Service', alert.service]);
  rows.push(['Triggered', utc(alert.createdAt)]);
  if (transition === 'resolved' && alert.resolvedAt) rows.push(['Resolved', utc(alert.resolvedAt)]);
  return rows;
}

/** Plain-text email; the description stays markdown, which reads fine as text. */
export function emailMessage(alert: AlertForMessage, transition: Transition, link: string): EmailMessage {
  const subject = oneLine(
    transition === 'firing' ? `[FIRING] ${alert.alertname} on ${alert.hostname} (${alert.severity})` : `[RESOLVED] ${alert.alertname} on ${alert.hostname}`,
  );
  const rows = facts(alert, transition);
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  const text = [
    `${label(transition)}: ${oneLine(alert.summary) || alert.alertname}`,
    '',
    ...rows.map(([k, v]) => `${`${k}:`.padEnd(width)}${oneLine(v)}`),
    '',
    alert.description,
    '',
    `View the alert: ${link}`,
    '',
  ].join('\n');
  return { subject, text };
}

/** Slack's mrkdwn treats these three as control characters (api.slack.com "Formatting text"). */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Our markdown bold is Slack's single-asterisk bold. */
const mrkdwn = (markdown: string) => esc(markdown).replace(/\*\*(.+?)\*\*/g, '*$1*');
/** A section's text may be at most 3,000 characters. */
const cap = (s: string, n = 2900) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function slackMessage(alert: AlertForMessage, transition: Transition, link: string): SlackMessage {
  const icon = transition === 'firing' ? (alert.severity === 'critical' ? ':red_circle:' : ':large_orange_circle:') : ':large_green_circle:';
  const head = `${label(transition)}: ${alert.alertname} on ${alert.hostname}${transition === 'firing' ? ` (${alert.severity})` : ''}`;
  const text = `${icon} ${esc(oneLine(head))} — ${esc(oneLine(alert.summary))} <${link}|View alert>`;
  const blocks: unknown[] = [
    { type: 'section', text: { type: 'mrkdwn', text: cap(`${icon} *<${link}|${esc(oneLine(head))}>*\n${esc(oneLine(alert.summary))}`) } },
    { type: 'section', fields: facts(alert, transition).map(([k, v]) => ({ type: 'mrkdwn', text: cap(`*${k}*\n${esc(oneLine(v))}`, 1900) })) },
  ];
  if (alert.description.trim()) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cap(mrkdwn(alert.description)) } });
  blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'View alert' }, url: link }] });
  return { text, blocks };
}
