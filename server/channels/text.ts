import { oneLine, parseAlertText, toPlainText } from '../contract/alert-text';
import type { OutboxTransition } from '../contract/alerts';
import { facts, firingKind, label } from '../alerting/delivery-messages';
import type { ChannelMessage } from './types';

/**
 * The words every chat-like channel shares (Teams, Telegram, ntfy), built from the alert's
 * structured fields. A host's text stays text: each channel sends it where the peer does not
 * read markup (Teams TextRuns, Telegram without parse_mode, ntfy without markdown).
 */

const kindLabel = (t: OutboxTransition) => (t === 'acknowledged' ? 'ACKNOWLEDGED' : label(t));
const firing = (t: OutboxTransition) => t !== 'acknowledged' && firingKind(t);

/** "FIRING: high_cpu_usage on web-1 (critical)"; a test says so. */
export function headline(m: ChannelMessage): string {
  if (m.notice) return m.notice.title;
  if (m.test) return 'TEST: a test notification from Opsdeck';
  const a = m.alert;
  return oneLine(`${kindLabel(m.transition)}: ${a.alertname} on ${a.hostname}${firing(m.transition) ? ` (${a.severity})` : ''}`);
}

export function summaryLine(m: ChannelMessage): string {
  if (m.notice) return m.notice.text;
  if (m.test) return 'If you can read this, the channel works. Nothing is wrong.';
  return oneLine(m.alert.summary) || m.alert.alertname;
}

export function factRows(m: ChannelMessage): [string, string][] {
  if (m.transition === 'acknowledged') return facts(m.alert, 'firing');
  return facts(m.alert, m.transition).map(([k, v]) => [k, oneLine(v)]);
}

export const descriptionText = (m: ChannelMessage) => toPlainText(parseAlertText(m.alert.description)).trim();

/** The whole message as plain text, bounded (Telegram allows 4096 characters). */
export function plainMessage(m: ChannelMessage, max = 4000): string {
  if (m.notice) return `${m.notice.title}\n${m.notice.text}`.slice(0, max);
  const lines = [
    headline(m),
    summaryLine(m),
    ...(m.extra.reason ? [oneLine(m.extra.reason)] : []),
    '',
    ...factRows(m).map(([k, v]) => `${k}: ${v}`),
    ...(descriptionText(m) ? ['', descriptionText(m)] : []),
    '',
    m.link,
  ];
  const text = lines.join('\n');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export const isFiring = firing;
