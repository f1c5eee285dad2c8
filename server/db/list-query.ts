/**
 * The list-query builder: SPEC §7's `POST /api/{resource}/all` (filter, search, sort, page and
 * count) built once for every list — the generic resources (server/routes/resource.ts), the
 * alerts, the services and the alert configs. A route parses the body (listQuerySchema) and
 * authorizes; a list declares what may be sorted, filtered and searched; this file turns a query
 * into SQL and picks how to page and count by how many rows match (docs/decisions.md "Counts").
 */
import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { FilterValue, listQuerySchema } from '../contract/common';
import { badRequest } from '../http/errors';
import type { Db } from './client';
import type { z } from 'zod';
import { isUuid } from '../contract/ids';

export type ListQueryInput = z.output<typeof listQuerySchema>;
type Op = 'contains' | 'in' | 'eq' | 'between';
type ValueKind = 'text' | 'uuid' | 'date' | 'number' | 'boolean';

/**
 * A text a list finds by `contains`: its lower-cased form (a generated column or lower(…)) and,
 * where migration 0024 indexed it, the same expression's 1- and 2-character substrings
 * (`opsdeck_short_grams(…)`, the exact expression of its GIN index). Trigrams cannot find a
 * needle shorter than three characters, so one or two typed characters were a pass over every row.
 */
export interface TextSpec {
  lower: PgColumn | SQL;
  grams?: SQL;
}

export interface FilterSpec {
  column: PgColumn;
  ops: readonly Op[];
  kind?: ValueKind;
  /** An already lower-cased copy of the column (a generated column) for fast `contains`. */
  lower?: PgColumn | SQL;
  /** Its short substrings (see TextSpec), for `contains` with one or two characters. */
  grams?: SQL;
  /** `eq` as something other than equality (e.g. "this array holds the value"). */
  match?: (value: unknown) => SQL;
  /** `in` as something other than membership of the column (a derived value, e.g. a record's kind). */
  matchIn?: (values: unknown[]) => SQL;
}

/** What a list declares; anything not declared (a sort or filter field, an operator) is a 400. */
export interface ListDef {
  sortable: Record<string, PgColumn | SQL>;
  filterable: Record<string, FilterSpec>;
  /** The texts `search` matches (any of them). */
  search: TextSpec[];
  defaultSort: { by: string; direction: 'asc' | 'desc' };
  /** Sort keys the list answers itself before it gets here (the alerts' `firing`): named in the 400 of an unknown one. */
  composedSorts?: readonly string[];
}

/**
 * A declared sort or filter field by the name a caller sent: own entries only, so `constructor`,
 * `__proto__` or `toString` are unknown fields (a 400) instead of Object.prototype's members.
 */
export function declared<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * `text contains needle`, case-insensitively, in two equivalent forms. `find` is how an index
 * answers it: the short grams for one or two characters (exactly "this gram is among the text's",
 * no recheck), else LIKE (trigram-indexed). `scan` is how a row read anyway is checked (a walk
 * along the sort index): always LIKE, since computing a row's grams costs ~22 µs where LIKE costs
 * well under one — 8,000 rows checked by grams were 150 ms of CPU on PGlite.
 */
export function containsText(text: TextSpec, needle: string): { find: SQL; scan: SQL } {
  const n = needle.toLowerCase();
  const scan = sql`${text.lower} like ${`%${escapeLike(n)}%`}`;
  if (text.grams && n.length > 0 && n.length <= 2) return { find: sql`${text.grams} @> array[${n}]::text[]`, scan };
  return { find: scan, scan };
}

function coerce(value: unknown, kind: ValueKind, field: string): unknown {
  switch (kind) {
    case 'uuid':
      if (typeof value !== 'string' || !isUuid(value)) throw badRequest(`filter.${field}: "${String(value)}" is not a valid id`, field);
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
  return filterConditions(field, spec, value).find;
}

/** A filter as an index finds it and as a row read anyway is checked (see containsText): the same but for `contains`. */
export function filterConditions(field: string, spec: FilterSpec, value: FilterValue): { find: SQL; scan: SQL } {
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
      return containsText({ lower: spec.lower ?? sql`lower(${spec.column})`, grams: spec.grams }, arg);
    }
    case 'eq':
      return same(spec.match ? spec.match(coerce(arg, kind, field)) : eq(spec.column, coerce(arg, kind, field)));
    case 'in': {
      const list = (arg as unknown[]).map((v) => coerce(v, kind, field));
      if (spec.matchIn) return same(spec.matchIn(list));
      return same(list.length ? inArray(spec.column, list) : sql`false`);
    }
    case 'between': {
      const [from, to] = arg as [unknown, unknown];
      return same(and(gte(spec.column, coerce(from, kind, field)), lte(spec.column, coerce(to, kind, field)))!);
    }
  }
}

const same = (condition: SQL) => ({ find: condition, scan: condition });

/** A list query read against its declaration: every name checked (a 400 naming the field), the SQL pieces built. */
export interface ListQuery {
  /** The conditions as indexes answer them (finding matches, counting, estimating). */
  where: SQL | undefined;
  /** The same conditions as rows read anyway are checked (the walk along the sort index). */
  scan: SQL | undefined;
  /** The filters as sent (a list may answer some from elsewhere, e.g. alert_counts). */
  filters: [string, FilterValue][];
  /** The trimmed search text, if any. */
  search: string | undefined;
  sortKey: PgColumn | SQL;
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export function buildListQuery(def: ListDef, q: ListQueryInput): ListQuery {
  const filters = Object.entries(q.filter ?? {});
  const conditions: { find: SQL; scan: SQL }[] = [];
  for (const [field, value] of filters) {
    const spec = declared(def.filterable, field);
    if (!spec) throw badRequest(`Unknown filter field "${field}" (filterable: ${Object.keys(def.filterable).join(', ')})`, field);
    conditions.push(filterConditions(field, spec, value));
  }
  const search = q.search?.trim() || undefined;
  if (search && def.search.length) {
    const texts = def.search.map((t) => containsText(t, search));
    conditions.push({ find: sql`(${sql.join(texts.map((t) => t.find), sql` or `)})`, scan: sql`(${sql.join(texts.map((t) => t.scan), sql` or `)})` });
  }
  const sort = q.sort ?? def.defaultSort;
  const sortKey = declared(def.sortable, sort.by);
  if (!sortKey) throw badRequest(`Unknown sort field "${sort.by}" (sortable: ${[...Object.keys(def.sortable), ...(def.composedSorts ?? [])].join(', ')})`, sort.by);
  return {
    where: conditions.length ? and(...conditions.map((c) => c.find)) : undefined,
    scan: conditions.length ? and(...conditions.map((c) => c.scan)) : undefined,
    filters,
    search,
    sortKey,
    direction: sort.direction,
    offset: (q.pageNumber - 1) * q.pageSize,
    limit: q.pageSize,
  };
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
export async function boundedCountOf(db: Db, matches: MatchQuery): Promise<number> {
  const capped = matches.limit(COUNT_BOUND + 1).as('capped') as Parameters<ReturnType<Db['select']>['from']>[0];
  const [row] = await db.select({ n: count() }).from(capped);
  return Number(row?.n ?? 0);
}

/**
 * The planner's estimate of how many rows match (EXPLAIN: no rows are read), rounded to two
 * significant figures, never below what boundedCount proved (COUNT_BOUND + 1).
 */
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

/**
 * Where a list's rows come from: its table (with joins), the row id, the order after the sort key
 * (ties), and how a page of rows is selected. Drizzle's builders differ by selection, so they are
 * passed as functions of the selection.
 */
export interface ListSource<Row> {
  /** `d.select(fields).from(table)[.innerJoin(…)]`: the list's FROM for any selection. */
  from: (d: Db, fields: Record<string, unknown>) => any;
  /** The full rows of a page: `d.select(…).from(…)` (what `rowsById` and the walk return). */
  rows: (d: Db) => any;
  /** How a row reads its id (rows come back as `rows` selects them). */
  idOf: (row: Row) => string;
  id: PgColumn;
  /** After the sort key: the order that makes pages stable (the id last). */
  ties: { key: PgColumn | SQL; direction: 'asc' | 'desc' }[];
  /** An exact count of all rows, cheaper than counting them (row_counts, alert_counts). */
  total?: (d: Db) => Promise<number>;
  /**
   * The page is wanted as ids only (`rows` selects just the id): ids found by their own indexes
   * are then the page as they are, without reading them again; whoever reads the rows drops
   * those deleted meanwhile (the checks' listItems, server/routes/resource.ts).
   */
  idsOnly?: (id: string) => Row;
}

export interface ListPage<Row> {
  rows: Row[];
  count: number;
  countEstimated?: true;
}

/**
 * From this offset on, a walk along the sort index finds the page's ids first and then reads only
 * their rows: every row an OFFSET skips is read whole when whole rows are selected, while the ids
 * (with the sort keys) come from the index alone where the visibility map allows. The alerts at
 * 1,000,000, page 400 (OFFSET 9,975): 30 ms → 4 ms on PGlite (docs/benchmarks.md "npm run bench -- lists").
 */
const DEEP_OFFSET = 250;

const dir = (direction: 'asc' | 'desc', key: PgColumn | SQL) => (direction === 'desc' ? desc(key) : asc(key));

/**
 * One page and its count, by the cheapest plan for how many rows match:
 * - nothing filtered: a walk along the sort index; the count from `total` (or a plain count);
 * - filtered: one capped pass finds up to COUNT_BOUND + 1 matches by their own indexes (ids and
 *   sort keys only) and sorts them. Few matches are counted exactly and their page read by id.
 *   Many matches lie dense along the sort index, so a walk along it finds the page at once; the
 *   count is then the planner's estimate, marked (docs/decisions.md "Counts").
 * `counted` (alerts: alert_counts) replaces the capped pass when it knows the exact count.
 * A page of no rows (limit 0) is the count alone: a list composed of two (the alerts' `firing`
 * sort) asks the second part only for its count while the first fills the page.
 */
export async function listPage<Row>(d: Db, source: ListSource<Row>, q: ListQuery, counted?: () => Promise<number>, denseAbove = COUNT_BOUND): Promise<ListPage<Row>> {
  const order = [dir(q.direction, q.sortKey), ...source.ties.map((t) => dir(t.direction, t.key))];
  /** One column a matching row: what the estimate and the capped counts read. */
  const matching = (where: SQL | undefined) => source.from(d, { one: sql`1` }).where(where);
  const walk = async (): Promise<Row[]> => {
    if (q.offset < DEEP_OFFSET) return source.rows(d).where(q.scan).orderBy(...order).limit(q.limit).offset(q.offset);
    const found = (await source.from(d, { id: source.id }).where(q.scan).orderBy(...order).limit(q.limit).offset(q.offset)) as { id: string }[];
    return rowsById(d, source, found.map((f) => f.id));
  };
  if (!q.where) {
    const countAll = source.total ? source.total(d) : countRows(d, source, undefined);
    const [rows, total] = await Promise.all([q.limit === 0 ? [] : walk(), countAll]);
    return { rows, count: total };
  }
  if (counted) {
    const total = await counted();
    if (total === 0 || q.offset >= total || q.limit === 0) return { rows: [], count: total };
    if (total > denseAbove) return { rows: await walk(), count: total };
    const { ids } = await pageIds(d, source, q, order.length, total + 1);
    return { rows: await rowsById(d, source, ids), count: total };
  }
  // The planner's estimate first (no rows read): it is the count when many match, and it says
  // how to look for them. Many: reading rows until COUNT_BOUND + 1 match is a short read (LIKE,
  // well under a µs a row). Few: an index finds them (the short grams for one or two characters,
  // ~1 µs per match, far too slow for 12,000 matches of "u" but 30× faster than reading every row
  // for a rare one).
  const estimate = await estimatedCountOf(d, matching(q.scan));
  const many = async (where: SQL | undefined): Promise<ListPage<Row>> => ({ rows: q.limit === 0 ? [] : await rowsById(d, source, await densePage(d, source, { ...q, where }, order.length)), count: estimate, countEstimated: true });
  // Many expected: more than COUNT_BOUND matches are proven by reading rows until that many have
  // (no keys, no sort: half the CPU of finding and sorting them, whose ids were never the page),
  // then the page is walked along the sort index.
  const proven = estimate >= DENSE_ESTIMATE ? await boundedCountOf(d, matching(q.scan)) : undefined;
  if (proven !== undefined && proven > COUNT_BOUND) return many(q.scan);
  // Few expected, or fewer found than the statistics said: their own indexes find them, counted
  // exactly. An empty first page found every match there is: none (no second pass to count).
  const { ids, total } = await pageIds(d, source, q, order.length, COUNT_BOUND + 1);
  const seen = proven ?? total ?? (q.offset === 0 && q.limit > 0 ? 0 : await boundedCountOf(d, matching(q.where)));
  if (seen <= COUNT_BOUND) return { rows: await rowsById(d, source, ids), count: seen };
  return many(q.where);
}

/** How far along the sort order a dense page is looked for before its matches are sorted instead (rows, at least). */
const WALK_WINDOW = 1_000;

/**
 * The page of many matches. They usually lie spread along the sort order, so the first rows of
 * it hold the page: a walk along the sort index, checking each row (LIKE), stopped after a
 * window. Matches bunched at the far end (usernames "ops4…" created long ago: 50,000 rows read
 * for 25) are not in the window; then all matches are found by their own indexes and sorted.
 */
async function densePage<Row>(d: Db, source: ListSource<Row>, q: ListQuery, keys: number): Promise<string[]> {
  const window = Math.max(WALK_WINDOW, (q.offset + q.limit) * 8);
  const fields: Record<string, unknown> = { id: source.id, hit: sql<boolean>`(${q.scan})`.as('hit'), k0: sql`${q.sortKey}`.as('k0') };
  source.ties.forEach((t, i) => (fields[`k${i + 1}`] = sql`${t.key}`.as(`k${i + 1}`)));
  const directions = [q.direction, ...source.ties.map((t) => t.direction)];
  const order = [dir(q.direction, q.sortKey), ...source.ties.map((t) => dir(t.direction, t.key))];
  const walked = source.from(d, fields).orderBy(...order).limit(window).as('walked');
  const found = (await d
    .select({ id: walked.id })
    .from(walked)
    .where(sql`${walked.hit}`)
    .orderBy(...Array.from({ length: keys }, (_, i) => dir(directions[i]!, walked[`k${i}`])))
    .limit(q.limit)
    .offset(q.offset)) as { id: string }[];
  if (found.length === q.limit) return found.map((f) => f.id);
  return (await pageIds(d, source, q, keys, Number.MAX_SAFE_INTEGER)).ids;
}

/**
 * From this many estimated matches on, the capped pass reads rows rather than an index (see
 * listPage). Measured on PGlite at 100,000 users: LIKE over rows ~0.2 µs each, a short-grams
 * bitmap ~1 µs per match; they cross near 4,000 matches (4 %).
 */
const DENSE_ESTIMATE = 4_000;

async function countRows<Row>(d: Db, source: ListSource<Row>, where: SQL | undefined): Promise<number> {
  const [row] = await source.from(d, { n: count() }).where(where);
  return Number((row as { n: number } | undefined)?.n ?? 0);
}

/**
 * Up to `cap` matches, found by their own indexes (a subquery with LIMIT is planned on its own,
 * so the planner cannot walk the sort index instead: for matches at its far end that read every
 * row), sorted by their keys; the page's ids, and how many were found (when the page is not empty).
 */
async function pageIds<Row>(d: Db, source: ListSource<Row>, q: ListQuery, keys: number, cap: number): Promise<{ ids: string[]; total: number | undefined }> {
  const fields: Record<string, unknown> = { id: source.id, k0: sql`${q.sortKey}`.as('k0') };
  source.ties.forEach((t, i) => (fields[`k${i + 1}`] = sql`${t.key}`.as(`k${i + 1}`)));
  const capped = source.from(d, fields).where(q.where).limit(cap).as('capped');
  const directions = [q.direction, ...source.ties.map((t) => t.direction)];
  const found = (await d
    .select({ id: capped.id, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(capped)
    .orderBy(...Array.from({ length: keys }, (_, i) => dir(directions[i]!, capped[`k${i}`])))
    .limit(q.limit)
    .offset(q.offset)) as { id: string; total: number }[];
  return { ids: found.map((f) => f.id), total: found[0]?.total };
}

async function rowsById<Row>(d: Db, source: ListSource<Row>, ids: string[]): Promise<Row[]> {
  if (!ids.length) return [];
  if (source.idsOnly) return ids.map(source.idsOnly);
  const rows = (await source.rows(d).where(inArray(source.id, ids))) as Row[];
  const byId = new Map(rows.map((r) => [source.idOf(r), r]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/**
 * PostgreSQL plans a parallel scan for some list queries (a search, status in two values):
 * starting its workers cost 70–100 ms of wall time for 3 ms of work on a busy two-core machine
 * (bench/alerts-list.ts). A list page is small work: it runs without workers. PGlite has none.
 */
export function withoutParallelWorkers<T>(db: Db, fn: (d: Db) => Promise<T>): Promise<T> {
  if (!((db as unknown as { $client?: unknown }).$client instanceof pg.Pool)) return fn(db);
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return fn(tx as unknown as Db);
  });
}
