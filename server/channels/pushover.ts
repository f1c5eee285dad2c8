import { contactKindLabels } from '../contract/contact-methods';
import { maskToken } from './mask';
import { postForm } from './http';
import { headline, plainMessage } from './text';
import { ChannelError, type ChannelPlugin } from './types';

export const PUSHOVER_API_URL = 'https://api.pushover.net';

/** A person's Pushover: their user key (and device), through the console's application token (PUSHOVER_APP_TOKEN). */
export interface PushoverTarget {
  type: 'pushover';
  id: string;
  name: string;
  userKey: string;
  device?: string;
  /** The console's application token; null when PUSHOVER_APP_TOKEN is not set. */
  token: string | null;
  apiUrl: string;
}

/** What Pushover's statuses mean (pushover.net/api "Response"): 4xx is a refusal of the request itself. */
const MEANINGS: Record<number, string> = { 400: 'the user key, the device or the application token was refused', 429: 'the application is over its monthly limit' };

/**
 * Pushover's Message API (pushover.net/api): POST /1/messages.json with the form fields token,
 * user and message (title, url and device beside them). It answers `{"status":1}` when it took it.
 */
export const pushoverChannel: ChannelPlugin<'pushover'> = {
  type: 'pushover',
  label: contactKindLabels.pushover,
  noun: 'Pushover notification',
  sends: (t) => t !== 'acknowledged',
  target: (c) => `user ${maskToken(c.userKey)}${c.device ? ` (${c.device})` : ''}`,
  // PUSHOVER_API_URL is the console's setting, not the person's.
  endpoints: () => [],
  unready: (c) => (!c.token ? 'PUSHOVER_APP_TOKEN is not set, so Opsdeck sends no Pushover notifications.' : null),
  async send(c, m, { timeoutMs, fetch }) {
    if (!c.token) throw new ChannelError('PUSHOVER_APP_TOKEN is not set, so Opsdeck sends no Pushover notifications.', null, true);
    const message = m.notice ? m.notice.text : plainMessage(m, 1024);
    const fields = { token: c.token, user: c.userKey, message: message.slice(0, 1024), title: headline(m).slice(0, 250), url: m.notice || m.test ? m.publicUrl : m.link, device: c.device };
    const res = await postForm('Pushover', `${c.apiUrl.replace(/\/+$/, '')}/1/messages.json`, fields, { timeoutMs, fetch, meanings: MEANINGS });
    let status: unknown;
    try {
      status = (JSON.parse(res.body || '{}') as { status?: unknown }).status;
    } catch {
      throw new ChannelError('Pushover answered something that is not JSON', res.status, true);
    }
    if (status !== 1) throw new ChannelError('Pushover did not take the message (its answer said status 0)', res.status, true);
    return { status: res.status };
  },
};
