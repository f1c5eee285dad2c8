import { endpoints, type EndpointName, type Endpoints } from '../../server/contract/api-routes';
import type { ApiRoute, EndpointAnswer, EndpointInput, HttpMethod } from '../../server/contract/endpoint';
import type { Api, RequestOptions } from './client';

type Args<E extends Endpoints[EndpointName]> = {} extends EndpointInput<E> ? [input?: EndpointInput<E>, options?: RequestOptions] : [input: EndpointInput<E>, options?: RequestOptions];

/** An answer that does not match its endpoint's declared response schema (checked in development and tests). */
export class ContractError extends Error {
  constructor(name: string, detail: string) {
    super(`${name} answered outside its contract: ${detail}`);
    this.name = 'ContractError';
  }
}

/** Answers are checked against their schemas while developing and in tests; a production build trusts the server it was built with. */
const checkAnswers = (() => {
  try {
    return Boolean(import.meta.env?.DEV);
  } catch {
    return false;
  }
})();

/** An endpoint's path for the client (which adds `/api`), its `:name` parameters filled in. */
export function endpointPath(name: EndpointName, params: Record<string, string> = {}): string {
  const path = endpoints[name].path;
  if (!path.startsWith('/api/')) throw new Error(`${name} is not under /api`);
  return path.slice('/api/'.length).replace(/:([A-Za-z_]+)/g, (_m, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`${name}: no value for :${key}`);
    return encodeURIComponent(value);
  });
}

const STAND_IN = Symbol('stand-in answer');

/**
 * Marks an answer a client made up itself rather than received: a printed dry run holds its
 * writes back and goes on with what the server would have answered (commands/print-api.ts).
 * Such an answer is not the server's, so it is not checked against the contract.
 */
export function standIn<T extends object>(answer: T): T {
  return Object.defineProperty(answer, STAND_IN, { value: true, enumerable: false });
}

/** Through the client's verbs, so every client (the browser's, one over a test server, one that records a run's calls) serves calls alike. */
function send(api: Api, method: HttpMethod, path: string, body: unknown, options: RequestOptions): Promise<unknown> {
  switch (method) {
    case 'GET':
      return api.get(path, options);
    case 'DELETE':
      return api.delete(path, options);
    case 'POST':
      return api.post(path, body, options);
    case 'PATCH':
      return api.patch(path, body, options);
    case 'PUT':
      return api.put(path, body, options);
  }
}

/**
 * Calls an endpoint by its name in the route table (server/contract/api-routes.ts) with typed
 * input; the answer is typed by the endpoint's response schema and, in development and tests,
 * checked against it. `api` is the HTTP client the caller was given (the browser's, or one over a
 * test server); `options` adds what a call carries beyond its input (a command run's headers).
 */
export async function call<N extends EndpointName>(api: Api, name: N, ...[input, options]: Args<Endpoints[N]>): Promise<EndpointAnswer<Endpoints[N]>> {
  const route: ApiRoute = endpoints[name];
  const given = (input ?? {}) as { params?: Record<string, string>; query?: RequestOptions['query']; body?: unknown };
  const path = endpointPath(name, given.params);
  const opts: RequestOptions = { ...options, ...(given.query ? { query: given.query } : {}) };
  const answer: unknown = await send(api, route.method, path, given.body, opts);
  if (checkAnswers && route.response && !(answer && typeof answer === 'object' && STAND_IN in answer)) {
    const checked = route.response.safeParse(answer);
    if (!checked.success) {
      const issue = checked.error?.issues[0];
      throw new ContractError(name, issue ? `${issue.path.map(String).join('.') || '(answer)'}: ${issue.message}` : 'does not match');
    }
  }
  return answer as EndpointAnswer<Endpoints[N]>;
}
