/** A minimal client for Prometheus's HTTP query API (https://prometheus.io/docs/prometheus/latest/querying/api/). */

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

export class PrometheusClient {
  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  private async call<T>(path: string, params: Record<string, string>): Promise<T> {
    let response: Response;
    try {
      // POST keeps long PromQL (many instances) out of the URL length limit.
      response = await fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new PrometheusError(`Prometheus at ${this.baseUrl} did not answer: ${(error as Error).message}`);
    }
    const answer = (await response.json().catch(() => ({ status: 'error', error: `HTTP ${response.status}` }))) as ApiAnswer<T>;
    if (answer.status !== 'success' || !answer.data) throw new PrometheusError(`Prometheus refused the query: ${answer.error ?? `HTTP ${response.status}`}`);
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
