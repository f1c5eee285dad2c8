import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import type { Whoami } from '../contract/auth';
import { ownCredentials, type Access, type ApiRoute, type OwnCredential, type PathParams } from '../contract/endpoint';
import { fromZod } from './errors';
import { requirePermission, requireUser } from './session';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: its input parsed by the declaration's schemas, and who is calling. */
export interface Served<E extends ApiRoute> {
  params: Record<PathParams<E['path']>, string> & { [K in keyof E['params']]: E['params'][K] extends z.ZodType ? z.output<E['params'][K]> : string };
  query: Parsed<E['query']>;
  body: Parsed<E['body']>;
  /** The signed-in user or token owner; null only where the access is public or a credential the route checks itself. */
  user: E['access'] extends 'public' | OwnCredential ? Whoami | null : Whoami;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What a handler answers: the response schema's input where one is declared. */
type Answer<E extends ApiRoute> = E['response'] extends z.ZodType ? z.input<E['response']> : unknown;

export type Handler<E extends ApiRoute> = (input: Served<E>) => Promise<Answer<E>> | Answer<E>;

/** Anyone, or a credential other than a user's that the route checks itself (its `before` or its handler). */
const OWN_CHECK = new Set<Access>(['public', ...ownCredentials]);

function parse(schema: z.ZodType | undefined, value: unknown, prefix?: string): unknown {
  if (!schema) return value;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fromZod(parsed.error, prefix);
  return parsed.data;
}

export interface ServeOptions<E extends ApiRoute = ApiRoute> extends Omit<RouteShorthandOptions, 'preHandler' | 'preValidation'> {
  /**
   * Runs after the access check and before the input is parsed, with the path parameters as sent:
   * a route that changes what its path names finds it here (auditTarget), so that an unknown id
   * answers 404 before a bad body answers 400 and a refused input is recorded against what it
   * tried to change.
   */
  before?: (input: { params: Record<PathParams<E['path']>, string>; request: FastifyRequest }) => Promise<void>;
}

/**
 * Registers an endpoint's handler through its declaration: the access check (401 signed out, 403
 * naming the permission), then the path parameters, query and body parsed by its schemas, in that
 * order, each refusal a 400 naming the field (server/http/errors.ts `fromZod`); the declared status
 * (201 for creations) unless the handler sets another. `options` carries what Fastify needs beyond
 * that (a body limit, a raw content type parser) and what runs before the parsing (`before`).
 */
export function serve<const E extends ApiRoute>(app: FastifyInstance, route: E, handler: Handler<E>, { before, ...options }: ServeOptions<E> = {}): void {
  const access = route.access;
  const check = OWN_CHECK.has(access) ? [] : access === 'signed-in' ? [async (request: FastifyRequest) => void requireUser(request)] : [requirePermission(access as Parameters<typeof requirePermission>[0])];
  const preHandler = before ? [...check, async (request: FastifyRequest) => before({ params: (request.params ?? {}) as Record<PathParams<E['path']>, string>, request })] : check;
  app.route({
    ...options,
    method: route.method,
    url: route.path,
    preHandler,
    handler: async (request, reply) => {
      const rawParams = (request.params ?? {}) as Record<string, string>;
      const params: Record<string, unknown> = { ...rawParams };
      for (const [name, schema] of Object.entries(route.params ?? {})) params[name] = parse(schema, rawParams[name], name);
      const query = route.query ? parse(route.query, request.query ?? {}) : request.query;
      const body = route.body ? parse(route.body, request.body ?? {}) : request.body;
      if (route.status && route.status !== 200) reply.status(route.status);
      return handler({ params, query, body, user: request.user, request, reply } as Served<E>);
    },
  });
}
