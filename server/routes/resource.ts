import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { listQuerySchema, type FilterValue } from '../contract/common';
import type { Permission } from '../contract/permissions';
import type { Whoami } from '../contract/auth';
import type { AuditTarget } from '../contract/command-history';
import type { Db } from '../db/client';
import { audited, auditTarget } from '../audit/trail';
import { badRequest, conflict, fromZod, notFound, pgConstraint } from '../http/errors';
import { requirePermission } from '../http/session';

type Op = 'contains' | 'in' | 'eq' | 'between';
type ValueKind = 'text' | 'uuid' | 'date' | 'number' | 'boolean';

export interface FilterSpec {
  column: PgColumn;
  ops: readonly Op[];
  kind?: ValueKind;
  /** An already lower-cased copy of the column (a generated column) for fast `contains`. */
  lower?: PgColumn | SQL;
  /** `eq` as something other than equality (e.g. "this array holds the value"). */
  match?: (value: unknown) => SQL;
}

export interface ResourceContext {
  /** Inside create/update/remove: the change's transaction, which also appends its audit record. */
  db: Db;
  user: Whoami;
  request: FastifyRequest;
  /** Work that must wait for the commit (caches, wake-ups). */
  afterCommit: (fn: () => void) => void;
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
  /** How the audit trail names a row (as it is at that moment): a server by hostname, a user by username. */
  target?: (row: Row) => AuditTarget;
  /** Unique indexes whose violation is a 409 naming a field (a race past the route's own check). */
  conflicts?: Record<string, { field: string; message: string }>;
  /**
   * Adds what lives outside the row (a check's rules, its uptime) to every answer, in one query per
   * answer however many items it holds; `toApi` stays a plain mapping of the row.
   */
  enrich?: (items: Out[]) => Promise<Out[]>;
  create?: {
    permission: Permission;
    schema: z.ZodTypeAny;
    /** Slow work on the input before the transaction opens (hashing a password). */
    prepare?: (input: any) => Promise<any>;
    toRow: (input: any, ctx: ResourceContext) => Promise<Record<string, unknown>>;
    /** Runs after the insert; what it returns is added to the answer (e.g. how many alerts a window marked). */
    after?: (created: Row, ctx: ResourceContext) => Promise<void | Partial<Out>>;
  };
  update?: {
    permission: Permission;
    schema: z.ZodTypeAny;
    /** Slow work (checks that resolve names, hashing) before the transaction opens, with the row as it is. */
    prepare?: (input: any, existing: Row) => Promise<any>;
    toRow: (input: any, existing: Row, ctx: ResourceContext) => Promise<Record<string, unknown>>;
    after?: (updated: Row, input: any, ctx: ResourceContext) => Promise<void | Partial<Out>>;
  };
  remove?: { permission: Permission; before?: (existing: Row, ctx: ResourceContext) => Promise<void>; after?: (removed: Row, ctx: ResourceContext) => Promise<void> };
}

/**
 * A declared sort or filter field by the name a caller sent: own entries only, so `constructor`,
 * `__proto__` or `toString` are unknown fields (a 400) instead of Object.prototype's members.
 */
export function declared<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
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
      return spec.match ? spec.match(coerce(arg, kind, field)) : eq(spec.column, coerce(arg, kind, field));
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

/**
 * Lists count their matches exactly up to this many; above it they answer the planner's estimate
 * (at least this many and one) with `countEstimated: true`, and the pager says "about"
 * (docs/decisions.md "Counts"). Finding 1,001 matches of a common prefix reads a few thousand
 * rows; counting 100,000 took most of a request that typed one character.
 */
export const COUNT_BOUND = 1_000;

/** A query selecting one column per matching row (`db.select({ one: sql`1` }).from(…).where(…)`). */
type MatchQuery = SQLWrapper & { limit(n: number): { as(alias: string): unknown } };

/** How many rows match, counting no further than COUNT_BOUND + 1. */
export async function boundedCount(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  return boundedCountOf(db, db.select({ one: sql`1` }).from(table).where(where));
}

export async function boundedCountOf(db: Db, matches: MatchQuery): Promise<number> {
  const capped = matches.limit(COUNT_BOUND + 1).as('capped') as Parameters<ReturnType<Db['select']>['from']>[0];
  const [row] = await db.select({ n: count() }).from(capped);
  return Number(row?.n ?? 0);
}

/**
 * The planner's estimate of how many rows match (EXPLAIN: no rows are read), rounded to two
 * significant figures, never below what boundedCount proved (COUNT_BOUND + 1).
 */
export async function estimatedCount(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  return estimatedCountOf(db, db.select({ one: sql`1` }).from(table).where(where));
}

export async function estimatedCountOf(db: Db, matches: SQLWrapper): Promise<number> {
  const res = (await db.execute(sql`explain (format json) ${matches}`)) as unknown as { rows: Record<string, unknown>[] };
  const raw = res.rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[];
  const rows = Number(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
  return Math.max(COUNT_BOUND + 1, roundTo2(rows));
}

function roundTo2(n: number): number {
  if (!(n > 0)) return 0;
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}

export function registerResource<Row extends Record<string, unknown>, Out>(app: FastifyInstance, db: Db, def: ResourceDef<Row, Out>): void {
  const base = `/api/${def.name}`;
  const table = def.table as any;
  const name = (row: Row) => def.target?.(row);
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
      const spec = declared(def.filterable, field);
      if (!spec) throw badRequest(`Unknown filter field "${field}" (filterable: ${Object.keys(def.filterable).join(', ')})`, field);
      conditions.push(filterCondition(field, spec, value));
    }
    const search = q.search?.trim();
    if (search && def.search.length) {
      const pattern = `%${escapeLike(search.toLowerCase())}%`;
      conditions.push(sql`(${sql.join(def.search.map((c) => sql`${c} like ${pattern}`), sql` or `)})`);
    }
    const sort = q.sort ?? def.defaultSort;
    const sortColumn = declared(def.sortable, sort.by);
    if (!sortColumn) throw badRequest(`Unknown sort field "${sort.by}" (sortable: ${Object.keys(def.sortable).join(', ')})`, sort.by);
    const where = conditions.length ? and(...conditions) : undefined;
    const order = sort.direction === 'desc' ? desc(sortColumn) : asc(sortColumn);
    const offset = (q.pageNumber - 1) * q.pageSize;
    const countAll = async () => Number((await db.select({ n: count() }).from(table).where(where))[0]?.n ?? 0);
    if (!where) {
      // Unfiltered: the sort index finds the page at once; the count is a plain scan.
      const [rows, total] = await Promise.all([db.select().from(table).orderBy(order, asc(def.id)).limit(q.pageSize).offset(offset), countAll()]);
      return { result: { data: await present(rows as Row[]), count: total } };
    }
    // Filtered: one pass that stops at COUNT_BOUND + 1 matches and sorts what it found. Few
    // matches (a rare needle, three or four typed characters) are counted exactly and paged here;
    // found through their own indexes, never by walking the sort index, which is slow when they
    // cluster at its far end (usernames "user12…" created long ago).
    const capped = db.select().from(table).where(where).limit(COUNT_BOUND + 1).as('capped');
    const fields = (capped as unknown as { _: { selectedFields: Record<string, unknown> } })._.selectedFields;
    const inCapped = (column: PgColumn) => sql`${sql.identifier('capped')}.${sql.identifier(column.name)}`;
    const found = (await db
      .select({ ...(fields as Record<string, PgColumn>), __total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(capped)
      .orderBy(sort.direction === 'desc' ? sql`${inCapped(sortColumn)} desc` : sql`${inCapped(sortColumn)} asc`, sql`${inCapped(def.id)} asc`)
      .limit(q.pageSize)
      .offset(offset)) as (Row & { __total: number })[];
    const seen = found[0]?.__total ?? (offset > 0 ? await boundedCount(db, table, where) : 0);
    if (seen <= COUNT_BOUND) {
      const rows = found.map(({ __total, ...row }) => row as unknown as Row);
      return { result: { data: await present(rows), count: seen } };
    }
    // Many matches (what one or two typed characters give): they lie dense along the sort index,
    // so walking it finds a page at once. Counting them all exactly was most of the time (193 ms
    // at 100,000 users for "u" on PGlite), so the count is the planner's estimate, marked as one
    // (docs/decisions.md "Counts"; the pager says "about").
    const [rows, estimate] = await Promise.all([db.select().from(table).where(where).orderBy(order, asc(def.id)).limit(q.pageSize).offset(offset), estimatedCount(db, table, where)]);
    return { result: { data: await present(rows as Row[]), count: estimate, countEstimated: true } };
  });

  app.get(base, { preHandler: requirePermission(def.read) }, async (request) => {
    const raw = (request.query as { id?: string | string[] }).id;
    const ids = (Array.isArray(raw) ? raw : raw ? [raw] : []).filter((id) => UUID.test(id));
    if (ids.length > 100) throw badRequest('At most 100 ids at a time', 'id');
    if (!ids.length) return { result: [] };
    const rows = await db.select().from(table).where(inArray(def.id, ids));
    return { result: await present(rows as Row[]) };
  });

  app.get<{ Params: { id: string } }>(`${base}/:id`, { preHandler: requirePermission(def.read) }, async (request) => {
    const row = await findOne(request.params.id);
    if (!row) throw notFound(`No ${def.name} item with id "${request.params.id}"`);
    return { result: await presentOne(row) };
  });

  const create = def.create;
  if (create) {
    app.post(base, { preHandler: requirePermission(create.permission) }, async (request, reply) => {
      const parsed = create.schema.safeParse(request.body ?? {});
      if (!parsed.success) throw fromZod(parsed.error);
      const input = create.prepare ? await create.prepare(parsed.data) : parsed.data;
      const { row, extra } = await change(request, async (ctx) => {
        const values = await create.toRow(input, ctx);
        const [created] = (await ctx.db.insert(table).values(values).returning()) as Row[];
        const target = name(created!);
        if (target) auditTarget(request, target);
        return { row: created!, extra: await create.after?.(created!, ctx) };
      });
      reply.status(201);
      return { result: { ...(await presentOne(row)), ...(extra ?? {}) } };
    });
  }

  const update = def.update;
  if (update) {
    app.patch<{ Params: { id: string } }>(`${base}/:id`, { preHandler: requirePermission(update.permission) }, async (request) => {
      // Found first, so that a refused change is recorded against what it tried to change.
      const existing = await findOne(request.params.id);
      if (!existing) throw notFound(`No ${def.name} item with id "${request.params.id}"`);
      const target = name(existing);
      if (target) auditTarget(request, target);
      const parsed = update.schema.safeParse(request.body ?? {});
      if (!parsed.success) throw fromZod(parsed.error);
      const input = update.prepare ? await update.prepare(parsed.data, existing) : parsed.data;
      const { row, extra } = await change(request, async (ctx) => {
        const values = await update.toRow(input, existing, ctx);
        const [updated] = (await ctx.db.update(table).set(values).where(eq(def.id, request.params.id)).returning()) as Row[];
        if (!updated) throw notFound(`No ${def.name} item with id "${request.params.id}"`);
        return { row: updated, extra: await update.after?.(updated, input, ctx) };
      });
      return { result: { ...(await presentOne(row)), ...(extra ?? {}) } };
    });
  }

  const remove = def.remove;
  if (remove) {
    app.delete<{ Params: { id: string } }>(`${base}/:id`, { preHandler: requirePermission(remove.permission) }, async (request) => {
      const existing = await findOne(request.params.id);
      if (!existing) throw notFound(`No ${def.name} item with id "${request.params.id}"`);
      const target = name(existing);
      if (target) auditTarget(request, target);
      await change(request, async (ctx) => {
        await remove.before?.(existing, ctx);
        const gone = await ctx.db.delete(table).where(eq(def.id, request.params.id)).returning({ id: def.id });
        if (!gone.length) throw notFound(`No ${def.name} item with id "${request.params.id}"`);
        await remove.after?.(existing, ctx);
      });
      return { result: { _id: request.params.id } };
    });
  }
}
