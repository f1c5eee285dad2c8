import { channelLabels } from '../contract/channels';
import { ChannelError } from './types';
import { maskToken } from './mask';
import { MAX_RETRY_AFTER_S, postJson } from './http';
import { plainMessage } from './text';
import type { ChannelPlugin } from './types';

export const TELEGRAM_API_URL = 'https://api.telegram.org';

/** What Telegram's statuses mean for sendMessage (core.telegram.org/bots/api#making-requests). */
const MEANINGS: Record<number, string> = {
  400: 'the chat id or the message was refused',
  401: 'the bot token was refused',
  403: 'the bot may not post in this chat',
  404: 'the bot token is unknown',
};

/** Telegram's retry_after (a 429's parameters), read from the answer; the answer itself is not shown. */
function telegramError(error: unknown): unknown {
  if (!(error instanceof ChannelError) || error.status === null || error.retryAfterS !== null) return error;
  let body: { parameters?: { retry_after?: number } } = {};
  try {
    body = error.peerBody ? JSON.parse(error.peerBody) : {};
  } catch {
    return error;
  }
  const retryAfter = typeof body.parameters?.retry_after === 'number' ? Math.max(0, Math.min(body.parameters.retry_after, MAX_RETRY_AFTER_S)) : null;
  return retryAfter === null ? error : new ChannelError(error.message, error.status, error.permanent, retryAfter);
}

/**
 * Bot API sendMessage (core.telegram.org/bots/api#sendmessage). No parse_mode: the text is
 * shown as it is, so a host's text cannot become markup; link previews are off.
 */
export const telegramChannel: ChannelPlugin<'telegram'> = {
  type: 'telegram',
  label: channelLabels.telegram,
  noun: 'Telegram message',
  sends: (t) => t !== 'acknowledged',
  target: (c) => `chat ${c.settings.chatId} (bot ${maskToken(c.secrets.botToken)})`,
  endpoints: (c) => (c.settings.apiUrl ? [{ field: 'settings.apiUrl', url: c.settings.apiUrl }] : []),
  async send(c, m, { timeoutMs, fetch }) {
    const base = (c.settings.apiUrl ?? TELEGRAM_API_URL).replace(/\/+$/, '');
    const body = { chat_id: c.settings.chatId, text: plainMessage(m), link_preview_options: { is_disabled: true } };
    try {
      const res = await postJson('Telegram', `${base}/bot${c.secrets.botToken}/sendMessage`, body, { timeoutMs, fetch, meanings: MEANINGS });
      const parsed = JSON.parse(res.body || '{}') as { ok?: boolean };
      if (parsed.ok !== true) throw new ChannelError('Telegram did not take the message (its answer said ok: false)', res.status, true);
      return { status: res.status };
    } catch (error) {
      if (error instanceof SyntaxError) throw new ChannelError('Telegram answered something that is not JSON', null, true);
      throw telegramError(error);
    }
  },
};
