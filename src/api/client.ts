import type { ApiErrorBody } from '../../server/contract/common';

/** The one error the HTTP client throws: SPEC §8 says any status outside 200–299 is an error. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: Partial<ApiErrorBody> & Record<string, unknown>;
  constructor(status: number, body: Partial<ApiErrorBody> & Record<string, unknown>) {
    super(typeof body.message === 'string' && body.message ? body.message : `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
  get field(): string | undefined {
    return typeof this.body.field === 'string' ? this.body.field : undefined;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestOptions {
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** Let the request outlive the page (a navigation or reload right after a command must not lose its history record). */
  keepalive?: boolean;
  /** Extra request headers (a command run's audit headers). */
  headers?: Record<string, string>;
  /** Sees every response's status and headers before its body is read (e.g. the audit record id). */
  onResponse?: (response: { status: number; headers: Headers }) => void;
}

/** Listeners for 401s: the app shell decides what to do (SPEC §8); the client never touches UI. */
type UnauthorizedListener = (path: string) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** Called by callers that read a response themselves (the live stream) when it is a 401. */
export function reportUnauthorized(path: string): void {
  for (const l of unauthorizedListeners) l(path);
}

/**
 * Listeners for whether the API answers at all: `true` on any response (even an error status
 * other than a gateway's 502–504), `false` when the request never got one (a network failure, a
 * proxy with no API behind it). The shell shows "Connection lost" from these; it is never a
 * sign-out (only a 401 is).
 */
type ReachListener = (reached: boolean) => void;
const reachListeners = new Set<ReachListener>();
export function onReach(listener: ReachListener): () => void {
  reachListeners.add(listener);
  return () => reachListeners.delete(listener);
}
export function reportReach(reached: boolean): void {
  for (const l of reachListeners) l(reached);
}
/** A gateway or proxy answering for an API that is not there. */
export const isGatewayStatus = (status: number) => status === 502 || status === 503 || status === 504;

let baseUrl = '/api';
/** Tests and non-browser callers (benchmarks, node) point the client at a running server. */
export function setApiBaseUrl(url: string): void {
  baseUrl = url.replace(/\/$/, '');
}

/** The address of an API call, for links the browser follows itself (downloads). */
export function apiUrl(path: string, query?: RequestOptions['query']): string {
  return buildUrl(path, query);
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const url = `${baseUrl}/${path.replace(/^\//, '')}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) params.append(k, String(item));
    else params.append(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

/** SPEC §9: the HTTP client has no timeout. Cookies are sent (credentials). */
export async function request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
  // The server refuses cookie-authenticated writes without this header: a cross-site form or
  // image cannot set it, and a cross-site fetch that sets it needs a CORS preflight we never grant.
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json', 'x-requested-with': 'opsdeck' };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.query), { method, headers, body, credentials: 'include', signal: options.signal, keepalive: options.keepalive });
  } catch (error) {
    if (!options.signal?.aborted) reportReach(false);
    throw error;
  }
  reportReach(!isGatewayStatus(res.status));
  options.onResponse?.({ status: res.status, headers: res.headers });
  const text = await res.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { message: text };
    }
  }
  if (res.status < 200 || res.status > 299) {
    if (res.status === 401) for (const l of unauthorizedListeners) l(path);
    throw new ApiError(res.status, (data && typeof data === 'object' ? data : {}) as ApiError['body']);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
export type Api = typeof api;
