import { channelLabels } from '../contract/channels';
import { oneLine } from '../contract/alert-text';
import type { OutboxTransition } from '../contract/alerts';
import { maskToken } from './mask';
import { postJson } from './http';
import { alertLabels } from './webhook';
import type { ChannelMessage, ChannelPlugin } from './types';

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';

/** One PagerDuty alert per Opsdeck alert: trigger, acknowledge and resolve all carry this key. */
export const dedupKey = (alertId: string) => `opsdeck-${alertId}`;

const ACTIONS: Partial<Record<OutboxTransition, 'trigger' | 'acknowledge' | 'resolve'>> = {
  firing: 'trigger',
  repeat: 'trigger',
  escalation: 'trigger',
  flapping: 'trigger',
  acknowledged: 'acknowledge',
  resolved: 'resolve',
};
const SEVERITY: Record<string, 'critical' | 'error' | 'warning' | 'info'> = { critical: 'critical', warning: 'warning', normal: 'info', info: 'info' };

/** PagerDuty Events API v2 (developer.pagerduty.com "Send an Alert Event"). */
export function pagerdutyEvent(routingKey: string, m: ChannelMessage, action: 'trigger' | 'acknowledge' | 'resolve', key: string) {
  if (action !== 'trigger') return { routing_key: routingKey, event_action: action, dedup_key: key };
  const a = m.alert;
  const summary = m.test ? 'Test notification from Opsdeck (resolved at once)' : oneLine(`${a.alertname} on ${a.hostname}: ${oneLine(a.summary) || a.alertname}`);
  return {
    routing_key: routingKey,
    event_action: action,
    dedup_key: key,
    payload: {
      summary: summary.length > 1024 ? `${summary.slice(0, 1023)}…` : summary,
      source: a.hostname || 'opsdeck',
      severity: SEVERITY[a.severity] ?? 'error',
      timestamp: a.createdAt.toISOString(),
      ...(a.service || a.mountpoint ? { component: a.service || a.mountpoint } : {}),
      ...(a.hostname ? { group: a.hostname } : {}),
      class: a.alertname,
      custom_details: { ...alertLabels(m), ...(m.extra.reason ? { reason: oneLine(m.extra.reason) } : {}) },
    },
    client: 'Opsdeck',
    client_url: m.link,
    links: [{ href: m.link, text: 'View the alert in Opsdeck' }],
  };
}

export const pagerdutyChannel: ChannelPlugin<'pagerduty'> = {
  type: 'pagerduty',
  label: channelLabels.pagerduty,
  noun: 'PagerDuty event',
  sends: (t) => ACTIONS[t] !== undefined,
  target: (c) => `routing key ${maskToken(c.secrets.routingKey)}`,
  endpoints: (c) => (c.settings.eventsUrl ? [{ field: 'settings.eventsUrl', url: c.settings.eventsUrl }] : []),
  async send(c, m, { timeoutMs, fetch }) {
    const url = c.settings.eventsUrl ?? PAGERDUTY_EVENTS_URL;
    if (m.test) {
      // A test leaves no open incident behind: trigger, then resolve the same key.
      const key = `opsdeck-test-${c.id}`;
      const res = await postJson('PagerDuty', url, pagerdutyEvent(c.secrets.routingKey, m, 'trigger', key), { timeoutMs, fetch });
      await postJson('PagerDuty', url, pagerdutyEvent(c.secrets.routingKey, m, 'resolve', key), { timeoutMs, fetch });
      return { status: res.status };
    }
    const action = ACTIONS[m.transition];
    if (!action) throw new Error(`PagerDuty does not send ${m.transition}`);
    const res = await postJson('PagerDuty', url, pagerdutyEvent(c.secrets.routingKey, m, action, dedupKey(m.alert.id)), { timeoutMs, fetch });
    return { status: res.status };
  },
};
