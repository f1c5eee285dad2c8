import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { endpoints } from '../contract/api-routes';
import type { ApiRoute, idsQuery } from '../contract/endpoint';
import type { listQuerySchema } from '../contract/common';
import type { Permission } from '../contract/permissions';
import type { Whoami } from '../contract/auth';
import type { AuditTarget } from '../contract/command-history';
import type { Db } from '../db/client';
import { audited, auditTarget } from '../audit/trail';
import { buildListQuery, listPage, withoutParallelWorkers, type FilterSpec, type TextSpec } from '../db/list-query';
import { resourceTable } from '../db/resource-table';
import { badRequest, conflict, notFound, pgConstraint } from '../http/errors';
import { serve } from '../http/serve';
import { isUuid } from '../contract/ids';

export interface ResourceContext {
  /** Inside create/update/remove: the change's transaction, which also appends its audit record. */
  db: Db;
  user: Whoami;
  request: FastifyRequest;
  /** Work that must wait for the commit (caches, wake-ups). */
  afterCommit: (fn: () => void) => void;
}

/**
 * One declaration per resource; `registerResource` turns it into SPEC §7's generic calls, each
 * served through its endpoint in the route table (`resource(key, …)` in
 * server/contract/api-routes.ts, found by the resource's path): who may call and how the input is
 * parsed come from there. Anything not declared (a sort field, a filter field or operator, a call)
 * does not exist.
 */
export interface ResourceDef<Row extends Record<string, unknown>, Out> {
  name: string;
  table: PgTable;
  id: PgColumn;
  toApi: (row: Row) => Out;
  /**
   * The columns a list page reads (the fields `toApi` uses), when not every one: the users list
   * reads no password hash and no generated lower-case copies (fewer fields to send and decode
   * on PGlite's one thread; docs/decisions.md "The request path every list pays").
   */
  listColumns?: Partial<Record<keyof Row, PgColumn>>;
  read: Permission;
  sortable: Record<string, PgColumn>;
  filterable: Record<string, FilterSpec>;
  /** The texts `search` matches: lower-cased expressions (generated columns or lower(...)), with their short grams where indexed. */
  search: TextSpec[];
  /** An exact count of every row without counting them (row_counts, migration 0024). */
  total?: (db: Db) => Promise<number>;
  defaultSort: { by: string; direction: 'asc' | 'desc' };
  /** How the audit trail names a row (as it is at that moment): a server by hostname, a user by username. */
  target?: (row: Row) => AuditTarget;
  /** Unique indexes whose violation is a 409 naming a field (a race past the route's own check). */
  conflicts?: Record<string, { field: string; message: string }>;
  /**
   * Adds what lives outside the row (a check's rules, its uptime) to every answer, in one query per
   * answer however many items it holds; `toApi` stays a plain mapping of the row.
   */
  enrich?: (items: Out[]) => Promise<Out[]>;
  /**
   * A list page's items from their ids, in that order, in one statement: what `toApi` and `enrich`
   * give for the same rows. Given, the page is found by its ids alone and its rows are not read
   * as rows: on PGlite every field of an answer costs about a microsecond to send and decode, so
   * 100 checks as 35 columns plus their 300 rules as 9 were most of a 100-row page (docs/benchmarks.md "npm run bench -- checks-list").
   */
  listItems?: (ids: string[]) => Promise<Out[]>;
  /** What the caller may see of the items (a DNS check's records only for its editors); every answer goes through it. */
  forCaller?: (items: Out[], request: FastifyRequest) => Out[];
  create?: {
    /** Optional: the endpoint's access; given, it must be the same. */
    permission?: Permission;
    /** Optional: the endpoint's body; given, it must be the same schema. */
    schema?: z.ZodTypeAny;
    /** Slow work on the input before the transaction opens (hashing a password). */
    prepare?: (input: any) => Promise<any>;
    toRow: (input: any, ctx: ResourceContext) => Promise<Record<string, unknown>>;
    /** Runs after the insert; what it returns is added to the answer (e.g. how many alerts a window marked). */
    after?: (created: Row, ctx: ResourceContext) => Promise<void | Partial<Out>>;
  };
  update?: {
    /** Optional: the endpoint's access; given, it must be the same. */
    permission?: Permission;
    /** Optional: the endpoint's body; given, it must be the same schema. */
    schema?: z.ZodTypeAny;
    /** Slow work (checks that resolve names, hashing) before the transaction opens, with the row as it is. */
    prepare?: (input: any, existing: Row) => Promise<any>;
    toRow: (input: any, existing: Row, ctx: ResourceContext) => Promise<Record<string, unknown>>;
    after?: (updated: Row, input: any, ctx: ResourceContext) => Promise<void | Partial<Out>>;
  };
  remove?: { permission?: Permission; before?: (existing: Row, ctx: ResourceContext) => Promise<void>; after?: (removed: Row, ctx: ResourceContext) => Promise<void> };
}

type Verb = 'list' | 'byIds' | 'get' | 'create' | 'update' | 'remove';

/**
 * The generic endpoints the route table declares for `/api/<name>`: the `<key>.list` whose path is
 * `/api/<name>/all` names the key (`servers/metrics` is `serverMetrics`). A def the table does not
 * declare, or one whose permissions or schemas disagree with it, fails at start-up rather than
 * serving something the OpenAPI description and the client do not know.
 */
/** A generic call on one item: its path ends in `/:id` (typed so, as the table's own literals are). */
type OnItem = ApiRoute & { path: `/api/${string}/:id` };

function declaredFor(def: ResourceDef<any, any>): { [V in Verb]: (V extends 'get' | 'update' | 'remove' ? OnItem : ApiRoute) | undefined } {
  const base = `/api/${def.name}`;
  const table = endpoints as Record<string, ApiRoute>;
  const listName = Object.keys(table).find((n) => n.endsWith('.list') && table[n]!.method === 'POST' && table[n]!.path === `${base}/all`);
  if (!listName) throw new Error(`No resource endpoints declared for ${base} in server/contract/api-routes.ts`);
  const key = listName.slice(0, -'.list'.length);
  const found = Object.fromEntries((['list', 'byIds', 'get', 'create', 'update', 'remove'] as const).map((v) => [v, table[`${key}.${v}`]])) as ReturnType<typeof declaredFor>;
  const disagree = (what: string) => {
    throw new Error(`${base}: the resource's ${what} is not the one ${key}.* declares in server/contract/api-routes.ts`);
  };
  for (const v of ['list', 'byIds', 'get'] as const) if (found[v]?.access !== def.read) disagree(`read permission (${v})`);
  for (const v of ['create', 'update', 'remove'] as const) {
    const given = def[v] as { permission?: Permission; schema?: z.ZodTypeAny } | undefined;
    if (!given !== !found[v]) disagree(`${v} call`);
    if (given?.permission && given.permission !== found[v]!.access) disagree(`${v} permission`);
    if (given?.schema && given.schema !== found[v]!.body) disagree(`${v} schema`);
  }
  return found;
}

export function registerResource<Row extends Record<string, unknown>, Out>(app: FastifyInstance, db: Db, def: ResourceDef<Row, Out>): void {
  const routes = declaredFor(def);
  const name = (row: Row) => def.target?.(row);
  const missing = (id: string) => notFound(`No ${def.name} item with id "${id}"`);
  /** One audited transaction per change; a unique-index race becomes the route's own 409. */
  async function change<T>(request: FastifyRequest, work: (ctx: ResourceContext) => Promise<T>): Promise<T> {
    try {
      return await audited(request, db, (tx, scope) => work({ db: tx, user: request.user!, request, afterCommit: scope.afterCommit }));
    } catch (error) {
      const known = def.conflicts?.[pgConstraint(error) ?? ''];
      if (known) throw conflict(known.message, known.field);
      throw error;
    }
  }
  const present = async (rows: Row[]): Promise<Out[]> => {
    const items = rows.map(def.toApi);
    return def.enrich && items.length ? def.enrich(items) : items;
  };
  const presentOne = async (row: Row): Promise<Out> => (await present([row]))[0]!;
  const seen = (items: Out[], request: FastifyRequest): Out[] => (def.forCaller ? def.forCaller(items, request) : items);

  const store = resourceTable<Row>(def);
  const findOne = (id: string) => store.findOne(db, id);

  /**
   * A change's row, found before its input is parsed (serve's `before`): a refused change is
   * recorded against what it tried to change, and a missing row is a 404 whatever the body.
   */
  const existingOf = new WeakMap<FastifyRequest, Row>();
  const findExisting = async (request: FastifyRequest) => {
    const id = (request.params as { id: string }).id;
    const existing = await findOne(id);
    if (!existing) throw missing(id);
    const target = name(existing);
    if (target) auditTarget(request, target);
    existingOf.set(request, existing);
  };
  const existing = (request: FastifyRequest) => existingOf.get(request)!;

  const { source, idsOnly } = store;
  const listItems = def.listItems;
  serve(app, routes.list!, async ({ body, request }) => {
    const query = buildListQuery(def, body as z.output<typeof listQuerySchema>);
    const page = await withoutParallelWorkers(db, (d) => listPage(d, listItems ? idsOnly : source, query));
    const data = seen(listItems ? (page.rows.length ? await listItems(page.rows.map(source.idOf)) : []) : await present(page.rows), request);
    return { result: { data, count: page.count, ...(page.countEstimated ? { countEstimated: true } : {}) } };
  });

  serve(app, routes.byIds!, async ({ query, request }) => {
    const raw = (query as z.output<typeof idsQuery>).id;
    const ids = (Array.isArray(raw) ? raw : raw ? [raw] : []).filter((id) => isUuid(id));
    if (ids.length > 100) throw badRequest('At most 100 ids at a time', 'id');
    if (!ids.length) return { result: [] };
    return { result: seen(await present(await store.findMany(db, ids)), request) };
  });

  serve(app, routes.get!, async ({ params, request }) => {
    const row = await findOne(params.id);
    if (!row) throw missing(params.id);
    return { result: seen([await presentOne(row)], request)[0]! };
  });

  const create = def.create;
  if (create) {
    serve(app, routes.create!, async ({ body, request }) => {
      const input = create.prepare ? await create.prepare(body) : body;
      const { row, extra } = await change(request, async (ctx) => {
        const values = await create.toRow(input, ctx);
        const created = await store.insert(ctx.db, values);
        const target = name(created);
        if (target) auditTarget(request, target);
        return { row: created, extra: await create.after?.(created, ctx) };
      });
      return { result: { ...seen([await presentOne(row)], request)[0]!, ...(extra ?? {}) } };
    });
  }

  const update = def.update;
  if (update) {
    serve(
      app,
      routes.update!,
      async ({ params, body, request }) => {
        const id = params.id;
        const input = update.prepare ? await update.prepare(body, existing(request)) : body;
        const { row, extra } = await change(request, async (ctx) => {
          const values = await update.toRow(input, existing(request), ctx);
          const updated = await store.update(ctx.db, id, values);
          if (!updated) throw missing(id);
          return { row: updated, extra: await update.after?.(updated, input, ctx) };
        });
        return { result: { ...seen([await presentOne(row)], request)[0]!, ...(extra ?? {}) } };
      },
      { before: ({ request }) => findExisting(request) },
    );
  }

  const remove = def.remove;
  if (remove) {
    serve(
      app,
      routes.remove!,
      async ({ params, request }) => {
        const id = params.id;
        await change(request, async (ctx) => {
          await remove.before?.(existing(request), ctx);
          if (!(await store.remove(ctx.db, id))) throw missing(id);
          await remove.after?.(existing(request), ctx);
        });
        return { result: { _id: id } };
      },
      { before: ({ request }) => findExisting(request) },
    );
  }
}
