import { channelLabels } from '../contract/channels';
import { createHash, createHmac } from 'node:crypto';
import { alertmanagerLabels } from '../alertmanager/labels';
import { oneLine } from '../contract/alert-text';
import { maskUrl } from './mask';
import { postJson } from './http';
import { descriptionText } from './text';
import type { ChannelMessage, ChannelPlugin } from './types';

/** Alertmanager's "not resolved yet" end time in webhook payloads. */
const ZERO_TIME = '0001-01-01T00:00:00Z';
export const SIGNATURE_HEADER = 'X-Opsdeck-Signature';

/** Alertmanager's label set for an Opsdeck alert: the push's own builder (server/alertmanager/labels.ts). */
export const alertLabels = (m: ChannelMessage): Record<string, string> => alertmanagerLabels(m.alert);

/**
 * Alertmanager's webhook payload, version 4 (prometheus.io "webhook_config"), one alert per
 * notification, so receivers written for Alertmanager work unchanged. `fingerprint` is stable
 * per Opsdeck alert; `generatorURL` is the alert's page.
 */
export function webhookPayload(m: ChannelMessage, receiver: string) {
  const a = m.alert;
  const status = m.transition === 'resolved' ? 'resolved' : 'firing';
  const labels = alertLabels(m);
  const annotations: Record<string, string> = { summary: oneLine(a.summary) || a.alertname, description: descriptionText(m) };
  if (m.extra.reason) annotations.reason = oneLine(m.extra.reason);
  return {
    version: '4',
    groupKey: `{}:{alertname=${JSON.stringify(a.alertname)}, opsdeck_alert_id=${JSON.stringify(a.id)}}`,
    truncatedAlerts: 0,
    status,
    receiver,
    groupLabels: { alertname: a.alertname },
    commonLabels: labels,
    commonAnnotations: annotations,
    externalURL: m.publicUrl,
    alerts: [
      {
        status,
        labels,
        annotations,
        startsAt: a.createdAt.toISOString(),
        endsAt: status === 'resolved' && a.resolvedAt ? a.resolvedAt.toISOString() : ZERO_TIME,
        generatorURL: m.link,
        fingerprint: createHash('sha256').update(a.id).digest('hex').slice(0, 16),
      },
    ],
  };
}

/** `sha256=<hex>`: HMAC-SHA256 of the exact body bytes with the channel's signing secret. */
export const signature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;

export const webhookChannel: ChannelPlugin<'webhook'> = {
  type: 'webhook',
  label: channelLabels.webhook,
  noun: 'Webhook',
  // A machine receiver: the alert's states, not reminders to a person or acknowledgements.
  sends: (t) => t !== 'acknowledged' && t !== 'reminder',
  target: (c) => maskUrl(c.secrets.url),
  endpoints: (c) => [{ field: 'secrets.url', url: c.secrets.url }],
  async send(c, m, { timeoutMs, fetch }) {
    const body = JSON.stringify(webhookPayload(m, c.name));
    const headers: Record<string, string> = { ...c.secrets.headers };
    if (c.secrets.signingSecret) headers[SIGNATURE_HEADER] = signature(c.secrets.signingSecret, body);
    const res = await postJson('The webhook', c.secrets.url, null, { timeoutMs, fetch, headers, rawBody: body });
    return { status: res.status };
  },
};
