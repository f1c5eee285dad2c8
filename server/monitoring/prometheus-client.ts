/** A minimal client for Prometheus's HTTP query API (https://prometheus.io/docs/prometheus/latest/querying/api/). */
import http from 'node:http';
import https from 'node:https';
import { backendReadDuration, backendReadErrors } from '../ops/metrics';

export interface VectorItem {
  metric: Record<string, string>;
  value: number;
}

export interface MatrixItem {
  metric: Record<string, string>;
  /** [unix seconds, value] pairs as Prometheus returns them, values parsed. */
  values: [number, number][];
}

interface ApiAnswer<T> {
  status: 'success' | 'error';
  data?: { resultType: string; result: T };
  error?: string;
  errorType?: string;
}

export class PrometheusError extends Error {}

/** How Opsdeck authenticates to the metric backend (PROMETHEUS_* settings, docs/self-monitoring.md). */
export interface BackendAuth {
  bearerToken?: string;
  /** `user:password`; also taken from `user:pass@` in the URL. */
  basicAuth?: string;
  /** Extra headers on every query, e.g. Mimir's and Cortex's `X-Scope-OrgID`. */
  headers?: Record<string, string>;
  /** PEM text of the CA that signed the backend's certificate (PROMETHEUS_CA_FILE). */
  ca?: string;
}

/** `https://user:pass@host/prefix/` → the URL without credentials, and the credentials. */
export function splitCredentials(url: string): { url: string; basicAuth?: string } {
  const u = new URL(url);
  if (!u.username && !u.password) return { url: url.replace(/\/+$/, '') };
  const basicAuth = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  u.username = '';
  u.password = '';
  return { url: u.toString().replace(/\/+$/, ''), basicAuth };
}

/** The URL as it may be shown anywhere (banner, logs, errors, API): never its credentials. */
export function redactUrl(url: string): string {
  try {
    return splitCredentials(url).url;
  } catch {
    return '(an invalid URL)';
  }
}

/** A request's failure in words (ECONNREFUSED, a TLS error, a timeout), never with credentials. */
function failure(error: unknown): string {
  const e = error as { code?: string; message?: string };
  if (e.code === 'ETIMEDOUT_OPSDECK') return 'no answer in time';
  if (e.code && e.message) return e.message.includes(e.code) ? e.message : `${e.code}: ${e.message}`;
  return e.message ?? String(error);
}

export class PrometheusClient {
  /** The address as it may be shown (banner, logs, errors): no credentials. */
  readonly displayUrl: string;
  private readonly url: URL;
  private readonly headers: Record<string, string>;
  private readonly agent: http.Agent;

  constructor(
    baseUrl: string,
    auth: BackendAuth = {},
    private readonly timeoutMs = 10_000,
  ) {
    const { url, basicAuth } = splitCredentials(baseUrl);
    this.url = new URL(url);
    this.displayUrl = url;
    const basic = auth.basicAuth ?? basicAuth;
    this.headers = {
      ...(auth.headers ?? {}),
      ...(basic ? { authorization: `Basic ${Buffer.from(basic).toString('base64')}` } : {}),
      ...(auth.bearerToken ? { authorization: `Bearer ${auth.bearerToken}` } : {}),
    };
    this.agent = this.url.protocol === 'https:' ? new https.Agent({ keepAlive: true, maxSockets: 8, ...(auth.ca ? { ca: auth.ca } : {}) }) : new http.Agent({ keepAlive: true, maxSockets: 8 });
  }

  /** Closes idle kept-alive connections (the app is closing). */
  close(): void {
    this.agent.destroy();
  }

  private async call<T>(path: string, params: Record<string, string>): Promise<T> {
    const started = performance.now();
    const api = path.endsWith('query_range') ? 'query_range' : 'query';
    try {
      const result = await this.request<T>(path, params);
      backendReadDuration.observe({ api, outcome: 'success' }, (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      backendReadDuration.observe({ api, outcome: 'error' }, (performance.now() - started) / 1000);
      backendReadErrors.inc({ reason: (error as { refused?: boolean }).refused ? 'refused' : 'unreachable' });
      throw error;
    }
  }

  private async request<T>(path: string, params: Record<string, string>): Promise<T> {
    // POST keeps long PromQL (many instances) out of the URL length limit.
    const body = new URLSearchParams(params).toString();
    const prefix = this.url.pathname.replace(/\/+$/, '');
    let answered: { status: number; text: string };
    try {
      answered = await new Promise((resolve, reject) => {
        const request = (this.url.protocol === 'https:' ? https : http).request(
          {
            protocol: this.url.protocol,
            hostname: this.url.hostname.replace(/^\[|\]$/g, ''),
            port: this.url.port || undefined,
            path: `${prefix}${path}`,
            method: 'POST',
            agent: this.agent,
            headers: { ...this.headers, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body), accept: 'application/json' },
          },
          (response) => {
            response.setEncoding('utf8');
            let text = '';
            response.on('data', (chunk: string) => {
              text += chunk;
              if (text.length > 64 * 1024 * 1024) request.destroy(new Error('The answer is larger than 64 MB'));
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
            response.on('error', reject);
          },
        );
        request.setTimeout(this.timeoutMs, () => request.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT_OPSDECK' })));
        request.on('error', reject);
        request.end(body);
      });
    } catch (error) {
      throw new PrometheusError(`Prometheus at ${this.displayUrl} did not answer: ${failure(error)}`);
    }
    let answer: ApiAnswer<T>;
    try {
      answer = JSON.parse(answered.text) as ApiAnswer<T>;
    } catch {
      const hint = answered.status === 401 || answered.status === 403 ? ' (check PROMETHEUS_BASIC_AUTH, PROMETHEUS_BEARER_TOKEN and PROMETHEUS_HEADERS)' : '';
      answer = { status: 'error', error: `HTTP ${answered.status}${hint}` };
    }
    if (answer.status !== 'success' || !answer.data) {
      throw Object.assign(new PrometheusError(`Prometheus at ${this.displayUrl} refused the query: ${answer.error ?? `HTTP ${answered.status}`}`), { refused: true });
    }
    return answer.data.result;
  }

  /** An instant query; NaN and infinite values are dropped. */
  async query(expr: string, atS?: number): Promise<VectorItem[]> {
    const result = await this.call<{ metric: Record<string, string>; value: [number, string] }[]>('/api/v1/query', {
      query: expr,
      ...(atS !== undefined ? { time: String(atS) } : {}),
    });
    return result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) })).filter((r) => Number.isFinite(r.value));
  }

  async queryRange(expr: string, startS: number, endS: number, stepS: number): Promise<MatrixItem[]> {
    const result = await this.call<{ metric: Record<string, string>; values: [number, string][] }[]>('/api/v1/query_range', {
      query: expr,
      start: String(startS),
      end: String(endS),
      step: String(stepS),
    });
    return result.map((r) => ({ metric: r.metric, values: r.values.map(([t, v]) => [t, Number(v)] as [number, number]) }));
  }
}
