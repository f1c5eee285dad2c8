import nodemailer from 'nodemailer';
import type { EmailMessage, SlackMessage } from './delivery-messages';
import { parseRetryAfter } from '../channels/http';
import { ChannelError } from '../channels/types';

/** What the SMTP server said about each recipient of one message. */
export interface EmailResult {
  accepted: string[];
  /** Refused recipients with the server's reason; the others got the message. */
  rejected: { address: string; error: string }[];
}

export interface Mailer {
  /** One message to all `to`; throws when nothing was accepted (connection, auth, every recipient refused). */
  send(to: string[], message: EmailMessage): Promise<EmailResult>;
  close(): void;
}

type AddressLike = string | { address: string };
const addressOf = (a: AddressLike) => (typeof a === 'string' ? a : a.address);

/** Errors say what the server answered, in one line, without credentials. */
export function describeError(error: unknown): string {
  const e = error as { message?: string; response?: string; code?: string };
  const text = e?.response || e?.message || String(error);
  return text.replace(/\s+/g, ' ').trim().slice(0, 500);
}

/**
 * SMTP through nodemailer. Timeouts are far below nodemailer's defaults (2 min connect, 10 min
 * idle): a hung server must not hold the outbox row (and on PostgreSQL its row lock) for long.
 */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  return {
    async send(to, message) {
      try {
        const info = await transport.sendMail({ from, to, subject: message.subject, text: message.text, html: message.html });
        const errors = ((info as { rejectedErrors?: { recipient?: string; response?: string; message?: string }[] }).rejectedErrors ?? []).map((e) => ({
          address: e.recipient ?? '',
          error: describeError(e),
        }));
        const rejected = (info.rejected as AddressLike[]).map(addressOf).map((address) => ({ address, error: errors.find((e) => e.address === address)?.error ?? 'Recipient refused' }));
        return { accepted: (info.accepted as AddressLike[]).map(addressOf), rejected };
      } catch (error) {
        throw new Error(describeError(error));
      }
    },
    close: () => transport.close(),
  };
}

export interface SlackTarget {
  apiUrl: string;
  token: string;
  channel: string;
}

/**
 * Slack's `{ok:false}` codes that say "not now" rather than "not this request" (docs.slack.dev
 * chat.postMessage "Errors" and the common errors): rate limiting and Slack's own trouble. Every
 * other code (invalid_auth, channel_not_found, not_in_channel, is_archived, missing_scope,
 * msg_too_long, …) needs a person to change something, so trying again cannot help.
 */
const SLACK_TEMPORARY = new Set(['ratelimited', 'rate_limited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

/**
 * Slack Web API chat.postMessage. Slack answers HTTP 200 with `{ok: false, error}` when it
 * refuses: a permanent refusal fails once with Slack's reason in the delivery log; rate limiting
 * and Slack's own errors are retried, at Slack's Retry-After when it sends one. HTTP 429 and 5xx
 * carry Slack's Retry-After (issue 15); another HTTP error status is a refusal of the request
 * itself: it fails once.
 */
export async function postSlack(target: SlackTarget, message: SlackMessage, timeoutMs = 10_000): Promise<number> {
  let res: Response;
  try {
    res = await fetch(`${target.apiUrl}/chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel: target.channel, text: message.text, blocks: message.blocks, mrkdwn: false, unfurl_links: false, unfurl_media: false }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    throw new ChannelError(`Slack could not be reached: ${describeError(cause ?? error)}`);
  }
  const body = await res.text().catch(() => '');
  if (!res.ok) {
    const what = `Slack answered HTTP ${res.status}${body ? `: ${body.slice(0, 200)}` : ''}`;
    const temporary = res.status === 408 || res.status === 429 || res.status >= 500;
    throw new ChannelError(what, res.status, !temporary, temporary ? parseRetryAfter(res.headers.get('retry-after')) : null);
  }
  let parsed: { ok?: boolean; error?: string } = {};
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ChannelError(`Slack answered something that is not JSON: ${body.slice(0, 200)}`, res.status);
  }
  if (parsed.ok !== true) {
    const code = typeof parsed.error === 'string' ? parsed.error : 'no reason given';
    if (SLACK_TEMPORARY.has(code)) throw new ChannelError(`Slack did not take the message now: ${code}`, res.status, false, parseRetryAfter(res.headers.get('retry-after')));
    throw new ChannelError(`Slack refused the message: ${code}`, res.status, true);
  }
  return res.status;
}
