import { oneLine, parseAlertText, toPlainText, type TextRun } from '../contract/alert-text';
import type { alerts } from '../db/schema';

/** What a notification says about one alert. */
export type AlertForMessage = Pick<
  typeof alerts.$inferSelect,
  'id' | 'hostname' | 'instance' | 'alertname' | 'severity' | 'summary' | 'description' | 'mountpoint' | 'volume' | 'service' | 'createdAt' | 'resolvedAt'
>;

/** What a message announces: SPEC's firing and resolved, and issue 14's repeat, escalation, reminder and flapping. */
export type Transition = 'firing' | 'resolved' | 'repeat' | 'escalation' | 'reminder' | 'flapping';

/** Issue 14 additions to a message: why it is sent (a repeat, an escalation step), and a host's recovery. */
export interface MessageExtra {
  /** One line: "Unacknowledged for 15m: escalation step 1 of 2." */
  reason?: string | null;
  /**
   * The resolution of an instance_down alert: the alerts suppressed while the host was down,
   * those that recovered meanwhile and those still firing (one message instead of one each).
   */
  recovery?: { recovered: string[]; stillFiring: string[] } | null;
  /**
   * Signed actions for the one person this message is for (issue 27 §4): acknowledge and resolve
   * links that act as them, once, until they expire. Only in a message sent to that person alone.
   */
  actions?: { ack?: string; resolve?: string } | null;
  /**
   * Slack only: Acknowledge and Resolve buttons (Block Kit `actions`) whose presses come back to the
   * console's interaction endpoint, checked by the Slack signing secret; Slack names who pressed.
   */
  slackButtons?: ('ack' | 'resolve')[] | null;
}

/** The action_id of a Slack button that acts on an alert (its `value` is the alert's id). */
export const SLACK_ACTION_IDS = { ack: 'opsdeck_alert_ack', resolve: 'opsdeck_alert_resolve' } as const;

/** What a message with actions says about them: they act as its reader. */
export const ACTIONS_NOTE = 'These links act as you: each works once and expires in 24 hours. Do not forward this message.';

export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
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

const LABELS: Record<Transition, string> = { firing: 'FIRING', resolved: 'RESOLVED', repeat: 'STILL FIRING', escalation: 'ESCALATED', reminder: 'ACK REMINDER', flapping: 'FLAPPING' };
export const label = (t: Transition) => LABELS[t];
/** Kinds about an alert that is (still) firing: their subject carries the severity. */
export const firingKind = (t: Transition) => t === 'firing' || t === 'repeat' || t === 'escalation';

function recoveryLines(r: NonNullable<MessageExtra['recovery']>): string[] {
  if (!r.recovered.length && !r.stillFiring.length) return [];
  const list = (items: string[]) => (items.length ? items.map((i) => `  - ${oneLine(i)}`) : ['  - none']);
  return ['While the host was down (these were not sent on their own):', 'Recovered:', ...list(r.recovered), 'Still firing:', ...list(r.stillFiring), ''];
}
const utc = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

export function facts(alert: AlertForMessage, transition: Transition): [string, string][] {
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

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function runHtml(run: TextRun): string {
  const text = escapeHtml(oneLine(run.text));
  const inner = run.code ? `<code style="font-family:monospace;background:#f1f5f9;padding:0 3px">${text}</code>` : text;
  return run.strong ? `<strong>${inner}</strong>` : inner;
}

function recoveryHtml(r: NonNullable<MessageExtra['recovery']>): string[] {
  if (!r.recovered.length && !r.stillFiring.length) return [];
  const list = (items: string[]) => `<ul style="margin:0 0 8px">${(items.length ? items : ['none']).map((i) => `<li>${escapeHtml(oneLine(i))}</li>`).join('')}</ul>`;
  return ['<p style="margin:8px 0 4px">While the host was down (these were not sent on their own):</p>', '<p style="margin:0">Recovered:</p>', list(r.recovered), '<p style="margin:0">Still firing:</p>', list(r.stillFiring)];
}

const actionLinkHtml = (url: string, text: string, color: string) =>
  `<a href="${escapeHtml(url)}" style="display:inline-block;padding:6px 14px;margin-right:8px;border-radius:6px;background:${color};color:#fff;text-decoration:none">${text}</a>`;

/**
 * Email with a text and an HTML part. Both are built from the alert's fields and the runs of its
 * description (server/contract/alert-text.ts): a host's text is escaped HTML in the one and
 * plain text in the other, never markup; our figures are bold in HTML.
 */
export function emailMessage(alert: AlertForMessage, transition: Transition, link: string, extra: MessageExtra = {}): EmailMessage {
  const subject = oneLine(`[${label(transition)}] ${alert.alertname} on ${alert.hostname}${firingKind(transition) ? ` (${alert.severity})` : ''}`);
  const rows = facts(alert, transition);
  const doc = parseAlertText(alert.description);
  const heading = `${label(transition)}: ${oneLine(alert.summary) || alert.alertname}`;
  const width = Math.max(...rows.map(([k]) => k.length)) + 2;
  const text = [
    heading,
    ...(extra.reason ? [oneLine(extra.reason)] : []),
    '',
    ...rows.map(([k, v]) => `${`${k}:`.padEnd(width)}${oneLine(v)}`),
    '',
    ...(extra.recovery ? recoveryLines(extra.recovery) : []),
    toPlainText(doc),
    '',
    ...(extra.actions?.ack ? [`Acknowledge: ${extra.actions.ack}`] : []),
    ...(extra.actions?.resolve ? [`Resolve: ${extra.actions.resolve}`] : []),
    `View the alert: ${link}`,
    ...(extra.actions ? ['', ACTIONS_NOTE] : []),
    '',
  ].join('\n');
  const color = transition === 'resolved' ? '#15803d' : alert.severity === 'critical' ? '#b91c1c' : '#c2410c';
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:14px;color:#0f172a">',
    `<h2 style="margin:0 0 12px;font-size:16px;color:${color}">${escapeHtml(heading)}</h2>`,
    ...(extra.reason ? [`<p style="margin:0 0 12px"><em>${escapeHtml(oneLine(extra.reason))}</em></p>`] : []),
    '<table style="border-collapse:collapse;margin-bottom:12px">',
    ...rows.map(([k, v]) => `<tr><th style="text-align:left;padding:2px 12px 2px 0;color:#475569;font-weight:600">${escapeHtml(k)}</th><td style="padding:2px 0">${escapeHtml(oneLine(v))}</td></tr>`),
    '</table>',
    ...(extra.recovery ? recoveryHtml(extra.recovery) : []),
    ...doc.map((paragraph) => `<p style="margin:0 0 8px">${paragraph.map(runHtml).join('')}</p>`),
    ...(extra.actions
      ? [
          `<p style="margin:16px 0 0">${[
            ...(extra.actions.ack ? [actionLinkHtml(extra.actions.ack, 'Acknowledge', '#1d4ed8')] : []),
            ...(extra.actions.resolve ? [actionLinkHtml(extra.actions.resolve, 'Resolve', '#15803d')] : []),
          ].join(' ')}</p>`,
        ]
      : []),
    `<p style="margin:16px 0 0"><a href="${escapeHtml(link)}">View the alert</a></p>`,
    ...(extra.actions ? [`<p style="margin:12px 0 0;font-size:12px;color:#475569">${escapeHtml(ACTIONS_NOTE)}</p>`] : []),
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

/** Slack treats &, < and > as control characters in every text object (docs.slack.dev "Formatting message text"). */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** A section's text may be at most 3,000 characters; a header's 150. */
const cap = (s: string, n = 2900) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const plain = (text: string, n?: number) => ({ type: 'plain_text', text: cap(esc(oneLine(text)), n), emoji: false });
type RichText = { type: 'text'; text: string; style?: { bold?: boolean; italic?: boolean; code?: boolean } };
const richRun = (text: string, style?: RichText['style']): RichText => ({ type: 'text', text: cap(oneLine(text), 2900), ...(style ? { style } : {}) });

/**
 * Slack Block Kit with nothing a host controls in mrkdwn: the head is a header and the facts are
 * plain_text objects (no formatting, no auto-links), and the description and a host's recovery
 * list are rich_text blocks whose runs carry our bold as a style, the way Slack asks for
 * user-defined text to be sent. The top-level `text` (notifications) is sent with `mrkdwn: false`.
 */
export function slackMessage(alert: AlertForMessage, transition: Transition, link: string, extra: MessageExtra = {}): SlackMessage {
  const icon = firingKind(transition) ? (alert.severity === 'critical' ? ':red_circle:' : ':large_orange_circle:') : transition === 'resolved' ? ':large_green_circle:' : ':large_blue_circle:';
  const head = `${label(transition)}: ${alert.alertname} on ${alert.hostname}${firingKind(transition) ? ` (${alert.severity})` : ''}`;
  const text = `${icon} ${esc(oneLine(head))} — ${esc(oneLine(extra.reason || alert.summary))} — View alert: ${link}`;
  const blocks: unknown[] = [
    { type: 'header', text: { ...plain(`${icon} ${head}`, 150), emoji: true } },
    { type: 'section', text: plain(alert.summary || alert.alertname) },
  ];
  if (extra.reason) blocks.push({ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [richRun(extra.reason, { italic: true })] }] });
  blocks.push({ type: 'section', fields: facts(alert, transition).map(([k, v]) => plain(`${k}: ${v}`, 1900)) });
  const doc = parseAlertText(alert.description);
  if (doc.length) {
    blocks.push({
      type: 'rich_text',
      elements: doc.map((paragraph, i) => ({
        type: 'rich_text_section',
        elements: [...(i > 0 ? [richRun('\n')] : []), ...paragraph.map((run) => richRun(run.text, run.strong || run.code ? { ...(run.strong ? { bold: true } : {}), ...(run.code ? { code: true } : {}) } : undefined))],
      })),
    });
  }
  const r = extra.recovery;
  if (r && (r.recovered.length || r.stillFiring.length)) {
    const list = (items: string[]) => ({ type: 'rich_text_list', style: 'bullet', elements: (items.length ? items : ['none']).map((i) => ({ type: 'rich_text_section', elements: [richRun(i)] })) });
    const title = (t: string) => ({ type: 'rich_text_section', elements: [richRun(t, { bold: true })] });
    blocks.push({ type: 'rich_text', elements: [title('While the host was down'), title('Recovered'), list(r.recovered), title('Still firing'), list(r.stillFiring)] });
  }
  const buttons = (extra.slackButtons ?? []).map((a) =>
    a === 'ack'
      ? { type: 'button', action_id: SLACK_ACTION_IDS.ack, text: { type: 'plain_text', text: 'Acknowledge' }, style: 'primary', value: alert.id }
      : { type: 'button', action_id: SLACK_ACTION_IDS.resolve, text: { type: 'plain_text', text: 'Resolve' }, value: alert.id },
  );
  blocks.push({ type: 'actions', elements: [...buttons, { type: 'button', text: { type: 'plain_text', text: 'View alert' }, url: link }] });
  return { text, blocks };
}

/**
 * A Slack message as plain lines, the way Slack shows it (the header, the summary, the facts, the
 * description, the button's link): what the delivery log previews for a Slack message that could
 * not be sent. Entities Slack decodes are decoded back.
 */
export function slackPreview(message: SlackMessage): string {
  const unescape = (t: string) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const lines: string[] = [];
  type Block = { type: string; text?: { text: string }; fields?: { text: string }[]; elements?: unknown[] };
  const richText = (elements: unknown[]): string =>
    (elements as { type: string; text?: string; elements?: unknown[] }[])
      .map((e) => (e.type === 'text' ? (e.text ?? '') : e.elements ? richText(e.elements) : ''))
      .join('');
  for (const block of message.blocks as Block[]) {
    if ((block.type === 'header' || block.type === 'section') && block.text) lines.push(unescape(block.text.text));
    if (block.type === 'section' && block.fields) lines.push(...block.fields.map((f) => unescape(f.text)));
    if (block.type === 'rich_text' && block.elements) {
      for (const el of block.elements as { type: string; elements?: unknown[] }[]) {
        if (el.type === 'rich_text_list') lines.push(...((el.elements ?? []) as { elements: unknown[] }[]).map((item) => `• ${richText(item.elements)}`));
        else lines.push(richText(el.elements ?? []).replace(/^\n/, ''));
      }
    }
    if (block.type === 'actions' && block.elements) for (const b of block.elements as { text?: { text: string }; url?: string }[]) if (b.url) lines.push(`${b.text?.text ?? 'Link'}: ${b.url}`);
  }
  return lines.join('\n');
}
