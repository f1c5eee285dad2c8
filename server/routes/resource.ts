import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { listQuerySchema, type FilterValue } from '../contract/common';
import type { Permission } from '../contract/permissions';
import type { Whoami } from '../contract/auth';
import type { Db } from '../db/client';
import { badRequest, fromZod, notFound } from '../http/errors';
import { requirePermission } from '../http/session';

type Op = 'contains' | 'in' | 'eq' | 'between';
type ValueKind = 'text' | 'uuid' | 'date' | 'number' | 'boolean';

export interface FilterSpec {
  column: PgColumn;
  ops: readonly Op[];
  kind?: ValueKind;
  /** An already lower-cased copy of the column (a generated column) for fast `contains`. */
  lower?: PgColumn | SQL;
}

export interface ResourceContext {
  db: Db;
  user: Whoami;
  request: FastifyRequest;
}

/**
 * One declaration per resource; `registerResource` turns it into SPEC §7's generic calls.
 * Anything not declared (a sort field, a filter field or operator, a call) does not exist.
 */
export interface ResourceDef<Row extends Record<string, unknown>, Out> {
  name: string;
  table: PgTable;
  id: PgColumn;
  toApi: (row: Row) => Out;
  read: Permission;
  sortable: Record<string, PgColumn>;
  filterable: Record<string, FilterSpec>;
  /** Lower-cased expressions (generated columns or lower(...)) that `search` matches. */
  search: (PgColumn | SQL)[];
  defaultSort: { by: string; direction: 'asc' | 'desc' };
  create?: {
    permission: Permission;
    schema: z.ZodTypeAny;
    toRow: (input: any, ctx: ResourceContext) => Promise<Record<string, unknown>>;
    after?: (created: Row, ctx: ResourceContext) => Promise<void>;
  };
  update?: {
    permission: Permission;
    schema: z.ZodTypeAny;
    toRow: (input: any, existing: Row, ctx: ResourceContext) => Promise<Record<string, unknown>>;
    after?: (updated: Row, input: any, ctx: ResourceContext) => Promise<void>;
  };
  remove?: { permission: Permission; before?: (existing: Row, ctx: ResourceContext) => Promise<void>; after?: (removed: Row, ctx: ResourceContext) => Promise<void> };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function coerce(value: unknown, kind: ValueKind, field: string): unknown {
  switch (kind) {
    case 'uuid':
      if (typeof value !== 'string' || !UUID.test(value)) throw badRequest(`filter.${field}: "${String(value)}" is not a valid id`, field);
      return value;
    case 'date': {
      const d = new Date(value as string | number);
      if (typeof value === 'boolean' || Number.isNaN(d.getTime())) throw badRequest(`filter.${field}: "${String(value)}" is not a date`, field);
      return d;
    }
    case 'number':
      if (typeof value !== 'number') throw badRequest(`filter.${field}: expected a number`, field);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw badRequest(`filter.${field}: expected true or false`, field);
      return value;
    default:
      if (typeof value !== 'string') throw badRequest(`filter.${field}: expected text`, field);
      return value;
  }
}

export function filterCondition(field: string, spec: FilterSpec, value: FilterValue): SQL {
  let op: Op;
  let arg: unknown;
  if (Array.isArray(value)) [op, arg] = ['in', value];
  else if (value !== null && typeof value === 'object') [op, arg] = Object.entries(value)[0] as [Op, unknown];
  else [op, arg] = ['eq', value];
  if (!spec.ops.includes(op)) throw badRequest(`Filter operator "${op}" is not allowed on "${field}" (allowed: ${spec.ops.join(', ')})`, field);
  const kind = spec.kind ?? 'text';
  switch (op) {
    case 'contains': {
      if (typeof arg !== 'string') throw badRequest(`filter.${field}: contains needs text`, field);
      const pattern = `%${escapeLike(arg.toLowerCase())}%`;
      return spec.lower ? sql`${spec.lower} like ${pattern}` : sql`lower(${spec.column}) like ${pattern}`;
    }
    case 'eq':
      return eq(spec.column, coerce(arg, kind, field));
    case 'in': {
      const list = (arg as unknown[]).map((v) => coerce(v, kind, field));
      return list.length ? inArray(spec.column, list) : sql`false`;
    }
    case 'between': {
      const [from, to] = arg as [unknown, unknown];
      return and(gte(spec.column, coerce(from, kind, field)), lte(spec.column, coerce(to, kind, field)))!;
    }
  }
}

export function registerResource<Row extends Record<string, unknown>, Out>(app: FastifyInstance, db: Db, def: ResourceDef<Row, Out>): void {
  const base = `/api/${def.name}`;
  const table = def.table as any;
  const ctx = (request: FastifyRequest): ResourceContext => ({ db, user: request.user!, request });

  async function findOne(id: string): Promise<Row | undefined> {
    if (!UUID.test(id)) return undefined;
    const rows = await db.select().from(table).where(eq(def.id, id)).limit(1);
    return rows[0] as Row | undefined;
  }

  app.post(`${base}/all`, { preHandler: requirePermission(def.read) }, async (request) => {
    const parsed = listQuerySchema.safeParse(request.body ?? {});
    if (!parsed.success) throw fromZod(parsed.error);
    const q = parsed.data;
    const conditions: SQL[] = [];
    for (const [field, value] of Object.entries(q.filter ?? {})) {
      const spec = def.filterable[field];
      if (!spec) throw badRequest(`Unknown filter field "${field}" (filterable: ${Object.keys(def.filterable).join(', ')})`, field);
      conditions.push(filterCondition(field, spec, value));
    }
    const search = q.search?.trim();
    if (search && def.search.length) {
      const pattern = `%${escapeLike(search.toLowerCase())}%`;
      conditions.push(sql`(${sql.join(def.search.map((c) => sql`${c} like ${pattern}`), sql` or `)})`);
    }
    const sort = q.sort ?? def.defaultSort;
    const sortColumn = def.sortable[sort.by];
    if (!sortColumn) throw badRequest(`Unknown sort field "${sort.by}" (sortable: ${Object.keys(def.sortable).join(', ')})`, sort.by);
    const where = conditions.length ? and(...conditions) : undefined;
    const order = sort.direction === 'desc' ? desc(sortColumn) : asc(sortColumn);
    const offset = (q.pageNumber - 1) * q.pageSize;
    const countAll = async () => Number((await db.select({ n: count() }).from(table).where(where))[0]?.n ?? 0);
    if (!where) {
      // Unfiltered: the sort index finds the page at once; the count is a plain scan.
      const [rows, total] = await Promise.all([db.select().from(table).orderBy(order, asc(def.id)).limit(q.pageSize).offset(offset), countAll()]);
      return { result: { data: (rows as Row[]).map(def.toApi), count: total } };
    }
    // Filtered: count the matches in the same pass that sorts them. Walking the sort index and
    // filtering as it goes looks cheap to the planner but is slow when matches cluster at the
    // far end (e.g. usernames "user12…" created long ago).
    const rows = (await db
      .select({ row: table, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(table)
      .where(where)
      .orderBy(order, asc(def.id))
      .limit(q.pageSize)
      .offset(offset)) as { row: Row; total: number }[];
    const total = rows[0]?.total ?? (offset > 0 ? await countAll() : 0);
    return { result: { data: rows.map((r) => def.toApi(r.row)), count: total } };
  });

  app.get(base, { preHandler: requirePermission(def.read) }, async (request) => {
    const raw = (request.query as { id?: string | string[] }).id;
    const ids = (Array.isArray(raw) ? raw : raw ? [raw] : []).filter((id) => UUID.test(id));
    if (ids.length > 100) throw badRequest('At most 100 ids at a time', 'id');
    if (!ids.length) return { result: [] };
    const rows = await db.select().from(table).where(inArray(def.id, ids));
    return { result: (rows as Row[]).map(def.toApi) };
  });

  app.get<{ Params: { id: string } }>(`${base}/:id`, { preHandler: requirePermission(def.read) }, async (request) => {
    const row = await findOne(request.params.id);
    if (!row) throw notFound(`No ${def.name} item with id "${request.params.id}"`);
    return { result: def.toApi(row) };
  });

  const create = def.create;
  if (create) {
    app.post(base, { preHandler: requirePermission(create.permission) }, async (request, reply) => {
      const parsed = create.schema.safeParse(request.body ?? {});
      if (!parsed.success) throw fromZod(parsed.error);
      const values = await create.toRow(parsed.data, ctx(request));
      const [row] = (await db.insert(table).values(values).returning()) as Row[];
      await create.after?.(row as Row, ctx(request));
      reply.status(201);
      return { result: def.toApi(row as Row) };
    });
  }

  const update = def.update;
  if (update) {
    app.patch<{ Params: { id: string } }>(`${base}/:id`, { preHandler: requirePermission(update.permission) }, async (request) => {
      const parsed = update.schema.safeParse(request.body ?? {});
      if (!parsed.success) throw fromZod(parsed.error);
      const existing = await findOne(request.params.id);
      if (!existing) throw notFound(`No ${def.name} item with id "${request.params.id}"`);
      const values = await update.toRow(parsed.data, existing, ctx(request));
      const [row] = (await db.update(table).set(values).where(eq(def.id, request.params.id)).returning()) as Row[];
      await update.after?.(row as Row, parsed.data, ctx(request));
      return { result: def.toApi(row as Row) };
    });
  }

  const remove = def.remove;
  if (remove) {
    app.delete<{ Params: { id: string } }>(`${base}/:id`, { preHandler: requirePermission(remove.permission) }, async (request) => {
      const existing = await findOne(request.params.id);
      if (!existing) throw notFound(`No ${def.name} item with id "${request.params.id}"`);
      await remove.before?.(existing, ctx(request));
      await db.delete(table).where(eq(def.id, request.params.id));
      await remove.after?.(existing, ctx(request));
      return { result: { _id: request.params.id } };
    });
  }
}
