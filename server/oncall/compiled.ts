/**
 * Compiled schedules kept between questions, keyed by each schedule's `updated_at` (every change
 * of a schedule, its layers, overrides or swaps moves it forward: store.ts `touched`). A question
 * reads the schedules' ids and versions (one small statement), loads and compiles only those that
 * are new or changed, and forgets those that are gone, so an edit is seen by the next question,
 * from any console process sharing the database.
 *
 * Each kept schedule also remembers its last "who is on call" answer and the range it holds for
 * (up to where the final schedule next changes), so asking again about now costs a comparison.
 */
import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import { isUuid } from '../contract/ids';
import type { Db } from '../db/client';
import { oncallSchedules } from '../db/schema';
import type { Source } from './model';
import type { OnCallSchedule } from './schedule';
import { allSchedules, compileOrRefuse, definitionOf, type StoredSchedule } from './store';

const DAY = 86_400_000;

/** Who is on call at an instant of a schedule, and until when they are without a break. */
export interface Answer {
  person: string;
  source: Source;
  until: number;
}

interface Entry {
  version: number;
  stored: StoredSchedule;
  compiled: OnCallSchedule;
  who: (at: number) => Answer | null;
}

export interface CompiledSchedule {
  stored: StoredSchedule;
  compiled: OnCallSchedule;
  /** Who is on call at `at` (null: nobody), as `compiled.who` and `compiled.shiftOf(person, at).end` answer. */
  who(at: number): Answer | null;
}

interface Cache {
  entries: Map<string, Entry>;
  /** Every schedule's id and version, in name order, as last read; and their digest then. */
  all: { digest: string; rows: { id: string; updatedAt: Date }[] } | null;
}

/** One cache per database (tests run several consoles in one process). */
const caches = new WeakMap<object, Cache>();

function cacheOf(db: Db): Cache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { entries: new Map(), all: null }));
  return cache;
}

/** The first answer's window; doubled while the person's run reaches its end, up to the longest. */
const FIRST_WINDOW = DAY;
const LONGEST_WINDOW = 32 * DAY;

function answerAt(c: OnCallSchedule, at: number): { answer: Answer | null; to: number } {
  for (let window = FIRST_WINDOW; window <= LONGEST_WINDOW; window *= 2) {
    const spans = c.final(at, at + window);
    const first = spans[0];
    // Nobody on call until the first span (or the window's end): the answer holds until then.
    if (!first || first.start > at) return { answer: null, to: first ? first.start : at + window };
    let end = first.end;
    for (let i = 1; i < spans.length && spans[i]!.start === end && spans[i]!.person === first.person; i++) end = spans[i]!.end;
    if (end < at + window) return { answer: { person: first.person, source: first.source, until: end }, to: first.end };
  }
  // A run longer than the longest window: the core's own walk answers it (and nothing is kept).
  const on = c.who(at)!;
  return { answer: { person: on.person, source: on.source, until: c.shiftOf(on.person, at)!.end }, to: at };
}

/** Who is on call at an instant, remembering the last answer and the range [from, to) it holds for. */
export function answering(c: OnCallSchedule): (at: number) => Answer | null {
  let memo: { from: number; to: number; answer: Answer | null } | null = null;
  return (at) => {
    if (memo && memo.from <= at && at < memo.to) return memo.answer;
    const { answer, to } = answerAt(c, at);
    memo = to > at ? { from: at, to, answer } : null;
    return answer;
  };
}

const view = (entry: Entry): CompiledSchedule => ({ stored: entry.stored, compiled: entry.compiled, who: entry.who });

/** Schedules as kept compiled, brought up to date with the database; rows are id + updated_at. */
async function current(db: Db, rows: { id: string; updatedAt: Date }[]): Promise<CompiledSchedule[]> {
  const cache = cacheOf(db).entries;
  const stale = rows.filter((r) => cache.get(r.id)?.version !== r.updatedAt.getTime());
  if (stale.length) {
    for (const stored of await allSchedules(db, { ids: stale.map((r) => r.id) })) {
      const compiled = compileOrRefuse(definitionOf(stored));
      cache.set(stored.row.id, { version: stored.row.updatedAt.getTime(), stored, compiled, who: answering(compiled) });
    }
  }
  return rows.flatMap((r) => {
    const entry = cache.get(r.id);
    return entry ? [view(entry)] : [];
  });
}

/** Every schedule (by name), compiled; schedules gone since the last question are forgotten. */
export async function compiledSchedules(db: Db): Promise<CompiledSchedule[]> {
  const cache = cacheOf(db);
  // One row says whether any schedule was made, changed or deleted since the last read: a
  // digest of every id and version in name order (a version only moves forward).
  const res = await db.execute<{ digest: string }>(sql`select md5(coalesce(string_agg(id::text || '@' || updated_at::text, ',' order by name_lc, id), '')) as digest from oncall_schedules`);
  const digest = res.rows[0]!.digest;
  if (cache.all?.digest !== digest) {
    const rows = await db.select({ id: oncallSchedules.id, updatedAt: oncallSchedules.updatedAt }).from(oncallSchedules).orderBy(asc(oncallSchedules.nameLc), asc(oncallSchedules.id));
    const live = new Set(rows.map((r) => r.id));
    for (const id of cache.entries.keys()) if (!live.has(id)) cache.entries.delete(id);
    cache.all = { digest, rows };
  }
  return current(db, cache.all.rows);
}

/** One schedule by id or by name (any case), compiled; undefined when there is none. */
export async function compiledSchedule(db: Db, ref: string): Promise<CompiledSchedule | undefined> {
  const rows = await db
    .select({ id: oncallSchedules.id, updatedAt: oncallSchedules.updatedAt })
    .from(oncallSchedules)
    .where(isUuid(ref) ? or(eq(oncallSchedules.id, ref), eq(oncallSchedules.nameLc, ref.toLowerCase())) : eq(oncallSchedules.nameLc, ref.toLowerCase()))
    .limit(1);
  return (await current(db, rows))[0];
}

/** Schedules by id, compiled (those that exist). */
export async function compiledById(db: Db, ids: string[]): Promise<CompiledSchedule[]> {
  const wanted = ids.filter(isUuid);
  if (!wanted.length) return [];
  return current(db, await db.select({ id: oncallSchedules.id, updatedAt: oncallSchedules.updatedAt }).from(oncallSchedules).where(inArray(oncallSchedules.id, wanted)));
}
