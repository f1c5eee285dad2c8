import { channelLabels } from '../contract/channels';
import { maskToken } from './mask';
import { postJson } from './http';
import { factRows, headline, isFiring, summaryLine } from './text';
import type { ChannelMessage, ChannelPlugin } from './types';

export const NTFY_URL = 'https://ntfy.sh';

/**
 * ntfy "publish as JSON" (docs.ntfy.sh/publish/#publish-as-json): POST to the server's root
 * with the topic in the body. Plain text (no `markdown`), a click-through to the alert.
 */
export function ntfyPayload(topic: string, m: ChannelMessage, priority?: number) {
  const firing = isFiring(m.transition);
  const severe = m.alert.severity === 'critical';
  const actions = ntfyActions(m);
  const lines = [summaryLine(m), ...(m.extra.reason ? [m.extra.reason] : []), ...(m.test ? [] : factRows(m).map(([k, v]) => `${k}: ${v}`))];
  return {
    topic,
    title: headline(m),
    message: lines.join('\n').slice(0, 3900),
    priority: priority ?? (m.test ? 3 : firing ? (severe ? 5 : 4) : 3),
    tags: m.test ? ['test_tube'] : m.transition === 'resolved' ? ['white_check_mark'] : firing ? [severe ? 'rotating_light' : 'warning'] : ['information_source'],
    click: m.test ? m.publicUrl : m.link,
    ...(actions.length ? { actions } : {}),
  };
}

/**
 * A person's own page (issue 27 §4) carries its signed actions as ntfy action buttons
 * (docs.ntfy.sh/publish/#action-buttons, "publish as JSON": at most three, each `{action: 'http',
 * label, url, method, clear}`): pressing one makes the ntfy app POST the signed URL, which acts
 * once as that person; `clear` dismisses the notification. The alert's page stays a `view` button.
 */
export function ntfyActions(m: ChannelMessage): { action: 'http' | 'view'; label: string; url: string; method?: 'POST'; clear?: boolean }[] {
  const a = m.test || m.notice ? null : m.extra.actions;
  if (!a) return [];
  return [
    ...(a.ack ? [{ action: 'http' as const, label: 'Acknowledge', url: a.ack, method: 'POST' as const, clear: true }] : []),
    ...(a.resolve ? [{ action: 'http' as const, label: 'Resolve', url: a.resolve, method: 'POST' as const, clear: true }] : []),
    { action: 'view' as const, label: 'Open', url: m.link },
  ];
}

export const ntfyChannel: ChannelPlugin<'ntfy'> = {
  type: 'ntfy',
  label: channelLabels.ntfy,
  noun: 'ntfy notification',
  sends: (t) => t !== 'acknowledged',
  target: (c) => `${new URL(c.settings.serverUrl ?? NTFY_URL).host} topic ${maskToken(c.secrets.topic)}`,
  endpoints: (c) => (c.settings.serverUrl ? [{ field: 'settings.serverUrl', url: c.settings.serverUrl }] : []),
  async send(c, m, { timeoutMs, fetch }) {
    const base = (c.settings.serverUrl ?? NTFY_URL).replace(/\/+$/, '');
    const headers: Record<string, string> = c.secrets.token ? { authorization: `Bearer ${c.secrets.token}` } : {};
    const res = await postJson('ntfy', `${base}/`, ntfyPayload(c.secrets.topic, m, c.settings.priority), { timeoutMs, fetch, headers });
    return { status: res.status };
  },
};
