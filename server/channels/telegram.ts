import { ChannelError } from './types';
import { maskToken } from './mask';
import { postJson } from './http';
import { plainMessage } from './text';
import type { ChannelPlugin } from './types';

export const TELEGRAM_API_URL = 'https://api.telegram.org';

/** Telegram's own reason ("Bad Request: chat not found") and its retry_after, from an error answer. */
function telegramError(error: unknown): unknown {
  if (!(error instanceof ChannelError) || error.status === null) return error;
  const json = /: (\{.*\})$/.exec(error.message)?.[1];
  let body: { description?: string; parameters?: { retry_after?: number } } = {};
  try {
    body = json ? JSON.parse(json) : {};
  } catch {
    return error;
  }
  const retryAfter = error.retryAfterS ?? (typeof body.parameters?.retry_after === 'number' ? body.parameters.retry_after : null);
  return new ChannelError(`Telegram answered HTTP ${error.status}${body.description ? `: ${body.description}` : ''}`, error.status, error.permanent, retryAfter);
}

/**
 * Bot API sendMessage (core.telegram.org/bots/api#sendmessage). No parse_mode: the text is
 * shown as it is, so a host's text cannot become markup; link previews are off.
 */
export const telegramChannel: ChannelPlugin<'telegram'> = {
  type: 'telegram',
  label: 'Telegram',
  sends: (t) => t !== 'acknowledged',
  target: (c) => `chat ${c.settings.chatId} (bot ${maskToken(c.secrets.botToken)})`,
  async send(c, m, { timeoutMs }) {
    const base = (c.settings.apiUrl ?? TELEGRAM_API_URL).replace(/\/+$/, '');
    const body = { chat_id: c.settings.chatId, text: plainMessage(m), link_preview_options: { is_disabled: true } };
    try {
      const res = await postJson('Telegram', `${base}/bot${c.secrets.botToken}/sendMessage`, body, { timeoutMs });
      const parsed = JSON.parse(res.body || '{}') as { ok?: boolean; description?: string };
      if (parsed.ok !== true) throw new ChannelError(`Telegram refused the message: ${parsed.description ?? 'no reason given'}`, res.status, true);
      return { status: res.status };
    } catch (error) {
      if (error instanceof SyntaxError) throw new ChannelError('Telegram answered something that is not JSON', null, true);
      throw telegramError(error);
    }
  },
};
