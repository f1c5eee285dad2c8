import net from 'node:net';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { EmailMessage, SlackMessage } from './delivery-messages';
import { networkReason, parseRetryAfter, statusMeaning } from '../channels/http';
import { ChannelError } from '../channels/types';
import { refusalOf, type OutboundFetch } from '../outbound/http-client';
import { OutboundPolicy } from '../outbound/policy';

/** What the SMTP server said about each recipient of one message. */
export interface EmailResult {
  accepted: string[];
  /** Refused recipients with the reason; the others got the message. */
  rejected: { address: string; error: string }[];
}

export interface Mailer {
  /** One message to all `to`; throws when nothing was accepted (connection, auth, every recipient refused). */
  send(to: string[], message: EmailMessage): Promise<EmailResult>;
  close(): void;
}

type AddressLike = string | { address: string };
const addressOf = (a: AddressLike) => (typeof a === 'string' ? a : a.address);

/** Errors in one line, without credentials; kept for what is not a peer's answer (our own errors). */
export function describeError(error: unknown): string {
  const refused = refusalOf(error);
  if (refused) return refused;
  const e = error as { message?: string };
  return (e?.message || String(error)).replace(/\s+/g, ' ').trim().slice(0, 500);
}

/**
 * An SMTP failure in fixed words: the reply code and enhanced status code (`550 5.1.1`) the
 * relay gave, never its text (docs/decisions.md "One outbound policy": no peer's answer is
 * shown beyond its status).
 */
export function smtpReason(error: unknown): string {
  const refused = refusalOf(error);
  if (refused) return refused;
  const e = error as { code?: string; responseCode?: number; response?: string; message?: string };
  const codes = replyCodes(e);
  const reply = !!codes;
  // Socket errors carry Node's code (ECONNREFUSED …) as theirs or in their message; only known ones are named.
  const errno = [e?.code, ...(e?.message?.match(/\bE[A-Z_]{4,}\b/g) ?? [])].find((c): c is string => !!c && SOCKET_ERRORS.has(c));
  switch (e?.code) {
    case 'EAUTH':
      return `the SMTP server refused the credentials${codes}`;
    case 'EDNS':
    case 'ENOTFOUND':
      return "the SMTP server's name does not resolve";
    case 'ETLS':
      return 'the TLS connection to the SMTP server failed';
    case 'EENVELOPE':
      return `the SMTP server refused the sender or every recipient${codes}`;
    case 'EMESSAGE':
      return `the SMTP server refused the message${codes}`;
    case 'EPROTOCOL':
      return 'the SMTP server answered something that is not SMTP';
    case 'ETIMEDOUT':
      return 'the SMTP server did not answer in time';
  }
  if (errno === 'ECONNREFUSED') return 'the SMTP server could not be reached: connection refused';
  if (errno === 'ETIMEDOUT') return 'the SMTP server did not answer in time';
  if (reply) return `the SMTP server refused${codes}`;
  return errno ? `the connection to the SMTP server failed (${errno})` : 'the connection to the SMTP server failed';
}

const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE', 'EADDRNOTAVAIL', 'EAI_AGAIN']);

/** ` (550 5.1.1)`: an SMTP reply's code and enhanced status code, or '' when it has none. */
function replyCodes(e: { responseCode?: number; response?: string } | undefined): string {
  const reply = e?.responseCode ?? (Number(/^(\d{3})/.exec(e?.response ?? '')?.[1]) || null);
  const enhanced = /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})\b/.exec(e?.response ?? '')?.[1];
  return reply ? ` (${reply}${enhanced ? ` ${enhanced}` : ''})` : '';
}

/**
 * SMTP through nodemailer. Timeouts are far below nodemailer's defaults (2 min connect, 10 min
 * idle): a hung server must not hold the outbox row (and on PostgreSQL its row lock) for long.
 * The connection is made by the outbound policy (nodemailer's getSocket): SMTP_URL's host is
 * decided on like a channel's, on the address it resolves to when the mail goes out.
 */
export function smtpMailer(url: string, from: string, outbound: OutboundPolicy = new OutboundPolicy()): Mailer {
  const connectionTimeout = 10_000;
  const getSocket = (options: SMTPTransport.Options, callback: (err: Error | null, socketOptions?: { connection: net.Socket }) => void) => {
    const host = options.host || 'localhost';
    const port = Number(options.port) || (options.secure ? 465 : 587);
    let lookup;
    try {
      ({ lookup } = outbound.connectOptions(host, port, 'channel'));
    } catch (error) {
      return callback(error as Error);
    }
    const socket = net.connect({ host, port, lookup });
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      callback(error);
    };
    const timer = setTimeout(() => fail(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' })), connectionTimeout);
    socket.once('error', fail);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      // nodemailer takes it from here, TLS included (smtps:// and STARTTLS upgrade this socket).
      callback(null, { connection: socket });
    });
  };
  const transport = nodemailer.createTransport({ url, connectionTimeout, greetingTimeout: 10_000, socketTimeout: 30_000, getSocket } as SMTPTransport.Options);
  return {
    async send(to, message) {
      try {
        const info = await transport.sendMail({ from, to, subject: message.subject, text: message.text, html: message.html });
        const errors = ((info as { rejectedErrors?: { recipient?: string; responseCode?: number; response?: string }[] }).rejectedErrors ?? []).map((e) => ({
          address: e.recipient ?? '',
          error: `refused by the SMTP server${replyCodes(e)}`,
        }));
        const rejected = (info.rejected as AddressLike[]).map(addressOf).map((address) => ({ address, error: errors.find((e) => e.address === address)?.error ?? 'refused by the SMTP server' }));
        return { accepted: (info.accepted as AddressLike[]).map(addressOf), rejected };
      } catch (error) {
        throw new Error(smtpReason(error));
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
 * The `{ok:false}` codes chat.postMessage documents: shown as they are, as a classification a
 * person can look up. Any other text in that field is the answer's own and is not repeated.
 */
const SLACK_KNOWN = new Set([
  ...SLACK_TEMPORARY,
  'access_denied', 'account_inactive', 'as_user_not_supported', 'channel_not_found', 'cannot_reply_to_message', 'deprecated_endpoint', 'duplicate_channel_not_found',
  'ekm_access_denied', 'enterprise_is_restricted', 'invalid_arg_name', 'invalid_arguments', 'invalid_array_arg', 'invalid_auth', 'invalid_blocks', 'invalid_blocks_format',
  'invalid_charset', 'invalid_form_data', 'invalid_metadata_format', 'invalid_post_type', 'is_archived', 'message_limit_exceeded', 'method_deprecated', 'missing_post_type',
  'missing_scope', 'msg_too_long', 'no_permission', 'no_text', 'not_allowed_token_type', 'not_authed', 'not_in_channel', 'org_login_required', 'restricted_action',
  'restricted_action_non_threadable_channel', 'restricted_action_read_only_channel', 'restricted_action_thread_locked', 'restricted_action_thread_only_channel',
  'slack_connect_canvas_sharing_blocked', 'slack_connect_file_link_sharing_blocked', 'team_access_not_granted', 'team_added_to_org', 'team_not_found', 'token_expired',
  'token_revoked', 'too_many_attachments', 'too_many_contact_cards', 'two_factor_setup_required', 'upgrade_required',
]);

/**
 * Slack Web API chat.postMessage. Slack answers HTTP 200 with `{ok: false, error}` when it
 * refuses: a permanent refusal fails once with Slack's reason in the delivery log; rate limiting
 * and Slack's own errors are retried, at Slack's Retry-After when it sends one. HTTP 429 and 5xx
 * carry Slack's Retry-After (issue 15); another HTTP error status is a refusal of the request
 * itself: it fails once. `fetch` is the console's, through the outbound policy.
 */
export async function postSlack(target: SlackTarget, message: SlackMessage, fetch: OutboundFetch, timeoutMs = 10_000): Promise<number> {
  let res: Awaited<ReturnType<OutboundFetch>>;
  try {
    res = await fetch(`${target.apiUrl}/chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel: target.channel, text: message.text, blocks: message.blocks, mrkdwn: false, unfurl_links: false, unfurl_media: false }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const refused = refusalOf(error);
    if (refused) throw new ChannelError(`Slack was not called: ${refused}`, null, true);
    throw new ChannelError(`Slack could not be reached: ${networkReason(error, timeoutMs)}`);
  }
  const body = await res.text().catch(() => '');
  if (!res.ok) {
    const what = `Slack answered HTTP ${res.status} (${statusMeaning(res.status)})`;
    const temporary = res.status === 408 || res.status === 429 || res.status >= 500;
    throw new ChannelError(what, res.status, !temporary, temporary ? parseRetryAfter(res.headers.get('retry-after')) : null);
  }
  let parsed: { ok?: boolean; error?: string } = {};
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ChannelError('Slack answered something that is not JSON', res.status);
  }
  if (parsed.ok !== true) {
    const code = typeof parsed.error !== 'string' ? 'no reason given' : SLACK_KNOWN.has(parsed.error) ? parsed.error : 'a reason Opsdeck does not know';
    if (SLACK_TEMPORARY.has(code)) throw new ChannelError(`Slack did not take the message now: ${code}`, res.status, false, parseRetryAfter(res.headers.get('retry-after')));
    throw new ChannelError(`Slack refused the message: ${code}`, res.status, true);
  }
  return res.status;
}
