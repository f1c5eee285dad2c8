import { z } from 'zod';
import { listQuerySchema, str } from './common';
import type { Permission } from './permissions';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Credentials other than a user's, each checked by its route itself: the agent installer's key,
 * Alertmanager's receiver token, Prometheus's service-discovery token (PROMETHEUS_SD_TOKEN), an
 * on-call calendar feed's secret (`?token=`, a calendar app has no session), a notification's
 * signed page action (issue 27 §4, the token in the path).
 */
export const ownCredentials = ['agent-key', 'alertmanager-token', 'prometheus-sd-token', 'calendar-feed-token', 'page-action-token', 'slack-signature'] as const;
export type OwnCredential = (typeof ownCredentials)[number];

/** Who may call: a permission of the signed-in user (or token), any signed-in user, anyone, or the holder of one of the credentials above. */
export type Access = Permission | 'public' | 'signed-in' | OwnCredential;

/**
 * One HTTP endpoint, declared once: the server registers its handler through it
 * (server/http/serve.ts: the access check and the parsing come from here), `/api/openapi.json` is
 * generated from it (server/contract/openapi.ts), and the web client calls it by name with typed
 * input and a checked answer (src/api/call.ts).
 */
export interface ApiRoute {
  method: HttpMethod;
  /** Fastify's pattern: `/api/servers/:id`. */
  path: string;
  summary: string;
  /** More than the summary says (a list's sort keys), put before who may call in the description. */
  notes?: string;
  tag: string;
  access: Access;
  /** Path parameters checked by a schema of their own (others are plain strings). */
  params?: Record<string, z.ZodType>;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The 2xx answer's body; absent when it is not JSON (files, metrics text) or not described. */
  response?: z.ZodType;
  /** 201 for creations; 200 otherwise. */
  status?: 200 | 201 | 204;
  /** What the answer is when it is not JSON. */
  produces?: string;
}

/** Keeps a declaration's exact types (its path's literal, its schemas) for the server and the client. */
export const endpoint = <const E extends ApiRoute>(e: E): E => e;

/** `{ result: <one> }`, SPEC §7's answer for one item. */
export const one = <S extends z.ZodType>(schema: S) => z.object({ result: schema });
/** `{ result: { data, count } }`, SPEC §7's answer for a page. */
export const page = <S extends z.ZodType>(schema: S) => z.object({ result: z.object({ data: z.array(schema), count: z.number().int(), countEstimated: z.literal(true).optional() }) });
/** What deleting one item of a resource answers: its id (server/routes/resource.ts). */
export const removedSchema = z.object({ _id: str() });
export const idsQuery = z.object({ id: z.union([str(), z.array(str())]).optional() });

/** The `:name` parameters of a path pattern. */
export type PathParams<P extends string> = P extends `${string}:${infer N}/${infer Rest}` ? N | PathParams<`/${Rest}`> : P extends `${string}:${infer N}` ? N : never;

type Part<K extends string, S> = S extends z.ZodType ? ({} extends z.input<S> ? { [P in K]?: z.input<S> } : { [P in K]: z.input<S> }) : {};

/** What a caller gives an endpoint: its path parameters, query and body, each only where it has one. */
export type EndpointInput<E extends ApiRoute> = ([PathParams<E['path']>] extends [never] ? {} : { params: Record<PathParams<E['path']>, string> }) & Part<'query', E['query']> & Part<'body', E['body']>;

/** What an endpoint answers (as sent): its response schema's output, `unknown` where none is declared. */
export type EndpointAnswer<E extends ApiRoute> = E['response'] extends z.ZodType ? z.output<E['response']> : unknown;

interface ResourceDoc<N extends string, E extends z.ZodType, C, U, D> {
  /** `/api/<name>` */
  name: N;
  tag: string;
  noun: string;
  entity: E;
  read: Permission;
  create?: C;
  update?: U;
  remove?: D;
}
type Write = { body: z.ZodType; access: Permission } | undefined;

/** SPEC §7's generic calls, as server/routes/resource.ts registers them for one resource, named `<key>.list` … `<key>.remove`. */
export function resource<const K extends string, const N extends string, E extends z.ZodType, C extends Write = undefined, U extends Write = undefined, D extends { access: Permission } | undefined = undefined>(
  key: K,
  r: ResourceDoc<N, E, C, U, D>,
) {
  const base = `/api/${r.name}`;
  const routes: Record<string, ApiRoute> = {
    [`${key}.list`]: { method: 'POST', path: `${base}/all`, summary: `List ${r.noun}s: page, sort, filter and search`, tag: r.tag, access: r.read, body: listQuerySchema, response: page(r.entity) },
    [`${key}.byIds`]: { method: 'GET', path: base, summary: `${r.noun}s by id (?id=…&id=…)`, tag: r.tag, access: r.read, query: idsQuery, response: one(z.array(r.entity)) },
    [`${key}.get`]: { method: 'GET', path: `${base}/:id`, summary: `One ${r.noun}`, tag: r.tag, access: r.read, response: one(r.entity) },
  };
  if (r.create) routes[`${key}.create`] = { method: 'POST', path: base, summary: `Create a ${r.noun}`, tag: r.tag, access: r.create.access, body: r.create.body, response: one(r.entity), status: 201 };
  if (r.update) routes[`${key}.update`] = { method: 'PATCH', path: `${base}/:id`, summary: `Change a ${r.noun}`, tag: r.tag, access: r.update.access, body: r.update.body, response: one(r.entity) };
  if (r.remove) routes[`${key}.remove`] = { method: 'DELETE', path: `${base}/:id`, summary: `Delete a ${r.noun}`, tag: r.tag, access: r.remove.access, response: one(removedSchema) };
  return routes as ResourceEndpoints<K, N, E, C, U, D>;
}

type Decl<M extends HttpMethod, P extends string, Q, B, R> = { method: M; path: P; summary: string; tag: string; access: Access; query: Q; body: B; response: R; status?: 200 | 201 };
type Page<E extends z.ZodType> = ReturnType<typeof page<E>>;
type One<E extends z.ZodType> = ReturnType<typeof one<E>>;
type Many<E extends z.ZodType> = ReturnType<typeof one<z.ZodArray<E>>>;
type Body<W> = W extends { body: infer B } ? B : never;
export type ResourceEndpoints<K extends string, N extends string, E extends z.ZodType, C, U, D> = { [P in `${K}.list`]: Decl<'POST', `/api/${N}/all`, undefined, typeof listQuerySchema, Page<E>> } & {
  [P in `${K}.byIds`]: Decl<'GET', `/api/${N}`, typeof idsQuery, undefined, Many<E>>;
} & { [P in `${K}.get`]: Decl<'GET', `/api/${N}/:id`, undefined, undefined, One<E>> } & ([C] extends [undefined] ? {} : { [P in `${K}.create`]: Decl<'POST', `/api/${N}`, undefined, Body<C>, One<E>> }) &
  ([U] extends [undefined] ? {} : { [P in `${K}.update`]: Decl<'PATCH', `/api/${N}/:id`, undefined, Body<U>, One<E>> }) &
  ([D] extends [undefined] ? {} : { [P in `${K}.remove`]: Decl<'DELETE', `/api/${N}/:id`, undefined, undefined, One<typeof removedSchema>> });
