import { refusalOf, type OutboundFetch } from '../outbound/http-client';
import { ChannelError } from './types';

/** Longest wait a peer's Retry-After is taken at its word for; longer ones wait this long. */
export const MAX_RETRY_AFTER_S = 3600;

/**
 * Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v), MAX_RETRY_AFTER_S);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, Math.ceil((at - now) / 1000)), MAX_RETRY_AFTER_S);
}

/**
 * What an HTTP status means, in our words: a peer's answer is shown as its status and this
 * fixed classification, never its body (docs/decisions.md "One outbound policy"). `own` gives a
 * peer's meanings where they are known (Telegram's 404 is an unknown bot token).
 */
export function statusMeaning(status: number, own: Record<number, string> = {}): string {
  if (own[status]) return own[status]!;
  if (status >= 500) return 'a server error';
  switch (status) {
    case 400:
      return 'the request was refused';
    case 401:
      return 'the credentials were refused';
    case 403:
      return 'the credentials may not do this';
    case 404:
      return 'no such URL';
    case 405:
      return 'the URL does not take POST';
    case 408:
      return 'the peer gave up waiting for the request';
    case 410:
      return 'the URL is gone';
    case 413:
      return 'the message is too large';
    case 415:
    case 422:
      return 'the message was not understood';
    case 429:
      return 'too many requests';
    default:
      return status >= 300 && status < 400 ? 'a redirect' : 'refused';
  }
}

export interface HttpAnswer {
  status: number;
  body: string;
  headers: { get(name: string): string | null };
}

/**
 * POSTs JSON to a peer and sorts the outcome: 2xx is returned; 408, 429 and 5xx are temporary
 * (with the peer's Retry-After); any other status is a permanent refusal; no answer at all
 * (refused, timed out, DNS, the outbound policy) is temporary, except a policy refusal, which
 * only a change of the target or of the policy can help. Messages name the peer, never the URL
 * (it may carry a key), and never repeat what the peer answered beyond its status; they are
 * redacted again by the worker. `meanings` are the peer's own words for some statuses.
 */
export async function postJson(
  peer: string,
  url: string,
  body: unknown,
  options: { timeoutMs: number; fetch: OutboundFetch; headers?: Record<string, string>; rawBody?: string; meanings?: Record<number, string> },
): Promise<HttpAnswer> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ChannelError(`The ${peer} URL is not a valid URL`, null, true);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ChannelError(`The ${peer} URL must start with http:// or https://`, null, true);
  let res: Awaited<ReturnType<OutboundFetch>>;
  try {
    res = await options.fetch(parsed, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Opsdeck', ...options.headers },
      body: options.rawBody ?? JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    const refused = refusalOf(error);
    if (refused) throw new ChannelError(`${peer} was not called: ${refused}`, null, true);
    throw new ChannelError(`${peer} could not be reached: ${networkReason(error, options.timeoutMs)}`);
  }
  const text = await res.text().catch(() => '');
  if (res.status >= 200 && res.status < 300) return { status: res.status, body: text, headers: res.headers };
  const what = `${peer} answered HTTP ${res.status} (${statusMeaning(res.status, options.meanings)})`;
  if (res.status === 408 || res.status === 429 || res.status >= 500) throw new ChannelError(what, res.status, false, parseRetryAfter(res.headers.get('retry-after')), text);
  if (res.status >= 300 && res.status < 400) throw new ChannelError(`${peer} answered with a redirect (HTTP ${res.status}); use the final URL`, res.status, true);
  throw new ChannelError(what, res.status, true, null, text);
}

/**
 * Why nothing came back, in fixed words per cause, never an error's text: a parser's complaint
 * about an answer that is not HTTP is said as such, not quoted, and undici's refusal of a header
 * value quotes a character of it (a webhook's headers are secrets).
 */
export function networkReason(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string; name?: string } };
  if (e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError') return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  const cause = e?.cause;
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return `the host name was not found (${cause.code})`;
  if (cause?.code === 'ECONNREFUSED') return 'the connection was refused (ECONNREFUSED)';
  if (cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET') return 'the connection was closed before an answer came';
  if (cause?.code?.startsWith('HPE_') || cause?.code === 'UND_ERR_INFO') return 'the answer is not HTTP';
  if (cause?.code === 'UND_ERR_CONNECT_TIMEOUT') return `no connection within ${Math.round(timeoutMs / 1000)} s`;
  if (cause?.code) return `the connection failed (${cause.code})`;
  // No cause: the request was never made (undici refusing a header value quotes a character of it).
  return 'the request could not be made';
}

/** postJson's sorting of answers for a peer that takes an HTML form (`application/x-www-form-urlencoded`: Pushover, Twilio). */
export const postForm = (peer: string, url: string, fields: Record<string, string | undefined>, options: { timeoutMs: number; fetch: OutboundFetch; headers?: Record<string, string>; meanings?: Record<number, string> }) =>
  postJson(peer, url, null, {
    ...options,
    headers: { ...options.headers, 'content-type': 'application/x-www-form-urlencoded' },
    rawBody: new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined)).toString(),
  });
