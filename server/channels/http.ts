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

/** One line of what a peer answered, bounded. */
export const excerpt = (body: string) => body.replace(/\s+/g, ' ').trim().slice(0, 300);

export interface HttpAnswer {
  status: number;
  body: string;
  headers: Headers;
}

/**
 * POSTs JSON to a peer and sorts the outcome: 2xx is returned; 408, 429 and 5xx are temporary
 * (with the peer's Retry-After); any other status is a permanent refusal; no answer at all
 * (refused, timed out, DNS) is temporary. Messages name the peer, never the URL (it may carry a
 * key), and are redacted again by the worker.
 */
export async function postJson(peer: string, url: string, body: unknown, options: { timeoutMs: number; headers?: Record<string, string>; rawBody?: string }): Promise<HttpAnswer> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ChannelError(`The ${peer} URL is not a valid URL`, null, true);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ChannelError(`The ${peer} URL must start with http:// or https://`, null, true);
  let res: Response;
  try {
    res = await fetch(parsed, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Opsdeck', ...options.headers },
      body: options.rawBody ?? JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    throw new ChannelError(`${peer} could not be reached: ${networkReason(error, options.timeoutMs)}`);
  }
  const text = await res.text().catch(() => '');
  if (res.status >= 200 && res.status < 300) return { status: res.status, body: text, headers: res.headers };
  const what = `${peer} answered HTTP ${res.status}${text ? `: ${excerpt(text)}` : ''}`;
  if (res.status === 408 || res.status === 429 || res.status >= 500) throw new ChannelError(what, res.status, false, parseRetryAfter(res.headers.get('retry-after')));
  if (res.status >= 300 && res.status < 400) throw new ChannelError(`${peer} answered with a redirect (HTTP ${res.status}); use the final URL`, res.status, true);
  throw new ChannelError(what, res.status, true);
}

function networkReason(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string; name?: string } };
  if (e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError') return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  const cause = e?.cause;
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return `the host name was not found (${cause.code})`;
  if (cause?.code === 'ECONNREFUSED') return 'the connection was refused (ECONNREFUSED)';
  const text = cause?.message || e?.message || String(error);
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}
