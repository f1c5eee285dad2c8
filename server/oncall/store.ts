import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { AuditTarget } from '../contract/command-history';
import { isUuid } from '../contract/ids';
import type { OnCallPerson, OnCallScheduleInfo, ScheduleLayer } from '../contract/oncall';
import type { Db } from '../db/client';
import { oncallFeedTokens, oncallOverrides, oncallSchedules, oncallSwaps, users } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import type { FieldError, Layer, Schedule } from './model';
import { compileSchedule, type OnCallSchedule } from './schedule';

/**
 * A stored schedule as the schedule core reads it, and as the API shows it: its row, its
 * overrides and swaps (rows of their own), the people it names.
 */
export type ScheduleRow = typeof oncallSchedules.$inferSelect;
export type OverrideRow = typeof oncallOverrides.$inferSelect;
export type SwapRow = typeof oncallSwaps.$inferSelect;

export interface StoredSchedule {
  row: ScheduleRow;
  overrides: OverrideRow[];
  swaps: SwapRow[];
}

/**
 * A schedule's new `updated_at` on any change of it, its layers, overrides or swaps: now, and
 * always at least a millisecond after the last (changes of one schedule take turns under its
 * lock), so it is a version the compiled-schedule cache (compiled.ts) can trust.
 */
export const touched = sql`greatest(now(), ${oncallSchedules.updatedAt} + interval '1 millisecond')`;

/** Marks a schedule changed (an override or swap added or removed): the next question recompiles it. */
export async function touchSchedule(tx: Db, id: string): Promise<ScheduleRow> {
  const [row] = await tx.update(oncallSchedules).set({ updatedAt: touched }).where(eq(oncallSchedules.id, id)).returning();
  return row!;
}

/** Marks changed the schedules a user has overrides in (deleting the user deletes them). */
export async function touchSchedulesOf(tx: Db, userId: string): Promise<void> {
  await tx
    .update(oncallSchedules)
    .set({ updatedAt: touched })
    .where(inArray(oncallSchedules.id, tx.select({ id: oncallOverrides.scheduleId }).from(oncallOverrides).where(eq(oncallOverrides.userId, userId))));
}

export const scheduleTarget = (row: Pick<ScheduleRow, 'id' | 'name'>): AuditTarget => ({ kind: 'oncall-schedule', id: row.id, name: row.name });

/** The schedule core's definition of a stored schedule (people are user ids). */
export function definitionOf(s: StoredSchedule, layers: Layer[] = s.row.layers): Schedule {
  return {
    timeZone: s.row.timeZone,
    layers,
    overrides: s.overrides.map((o) => ({ id: o.id, person: o.userId, start: o.startsAt.toISOString(), end: o.endsAt.toISOString() })),
    swaps: s.swaps.map((w) => ({ id: w.id, first: { layer: w.firstLayer, start: w.firstStart.toISOString() }, second: { layer: w.secondLayer, start: w.secondStart.toISOString() } })),
  };
}

/**
 * A refusal of the core as the API's 400: `blame` turns the core's field (`layers.2.participants`)
 * into the field of the request at fault (`participants`), the message keeping what it says.
 */
export function refuse(error: FieldError, blame: (field: string) => string = (f) => f): never {
  const field = blame(error.field);
  const text = error.message.startsWith(`${error.field}: `) ? error.message.slice(error.field.length + 2) : error.message;
  throw badRequest(`${field}: ${text}`, field);
}

/** Compiles a definition, or refuses it with its first error named by `blame`. */
export function compileOrRefuse(def: Schedule, blame?: (field: string) => string): OnCallSchedule {
  const compiled = compileSchedule(def);
  if (!compiled.ok) refuse(compiled.errors[0]!, blame);
  return compiled.schedule;
}

/**
 * Every participant and override person is an existing user (by id): 400 naming the first that is
 * not. Answers them as audit targets, so History names them by username.
 */
export async function checkPeople(db: Db, named: { field: string; id: string }[]): Promise<AuditTarget[]> {
  const ids = [...new Set(named.map((n) => n.id).filter(isUuid))];
  const found = ids.length ? await db.select({ id: users.id, name: users.username }).from(users).where(inArray(users.id, ids)) : [];
  const known = new Set(found.map((u) => u.id));
  const bad = named.find((n) => !known.has(n.id));
  if (bad) throw badRequest(`${bad.field}: no user with id "${bad.id}"`, bad.field);
  const byId = new Map(found.map((u) => [u.id, u]));
  return ids.map((id) => ({ kind: 'user', ...byId.get(id)! }));
}

export const layerPeople = (layer: Pick<Layer, 'participants'>, at: string) => (Array.isArray(layer.participants) ? layer.participants : []).map((id, j) => ({ field: `${at}.${j}`, id }));

/** A schedule by id, locked for the change that reads it (changes of one schedule take turns). */
export async function lockSchedule(tx: Db, id: string): Promise<StoredSchedule> {
  const [row] = isUuid(id) ? await tx.select().from(oncallSchedules).where(eq(oncallSchedules.id, id)).for('update') : [];
  if (!row) throw notFound(`No on-call schedule with id "${id}"`);
  return { row, ...(await partsOf(tx, [row.id])).get(row.id)! };
}

/** The overrides (by start) and swaps of schedules, in two statements. */
export async function partsOf(db: Db, ids: string[]): Promise<Map<string, { overrides: OverrideRow[]; swaps: SwapRow[] }>> {
  const out = new Map(ids.map((id) => [id, { overrides: [] as OverrideRow[], swaps: [] as SwapRow[] }]));
  if (!ids.length) return out;
  for (const o of await db.select().from(oncallOverrides).where(inArray(oncallOverrides.scheduleId, ids)).orderBy(asc(oncallOverrides.startsAt))) out.get(o.scheduleId)!.overrides.push(o);
  for (const w of await db.select().from(oncallSwaps).where(inArray(oncallSwaps.scheduleId, ids)).orderBy(asc(oncallSwaps.createdAt))) out.get(w.scheduleId)!.swaps.push(w);
  return out;
}

/** Every schedule with its parts (for who is on call everywhere, and a person's feed). */
export async function allSchedules(db: Db, where?: { ids?: string[] }): Promise<StoredSchedule[]> {
  const ids = where?.ids?.filter(isUuid);
  if (ids && !ids.length) return [];
  const rows = await db
    .select()
    .from(oncallSchedules)
    .where(ids ? inArray(oncallSchedules.id, ids) : sql`true`)
    .orderBy(asc(oncallSchedules.nameLc));
  const parts = await partsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ row, ...parts.get(row.id)! }));
}

/** The people a list of user ids names; an id whose user is gone reads "(removed user)". */
export async function peopleOf(db: Db, ids: Iterable<string>): Promise<Map<string, OnCallPerson>> {
  const wanted = [...new Set(ids)].filter(isUuid);
  const rows = wanted.length ? await db.select({ _id: users.id, username: users.username, email: users.email }).from(users).where(inArray(users.id, wanted)) : [];
  const map = new Map(rows.map((r) => [r._id, r]));
  for (const id of ids) if (!map.has(id)) map.set(id, { _id: id, username: '(removed user)', email: '' });
  return map;
}

export const peopleNamed = (s: StoredSchedule): string[] => [...s.row.layers.flatMap((l) => l.participants), ...s.overrides.map((o) => o.userId)];

export const layerToApi = (l: Layer, i: number): ScheduleLayer => ({
  id: l.id,
  name: l.name ?? `Layer ${i + 1}`,
  participants: l.participants,
  shift: l.shift,
  start: l.start,
  handoff: l.handoff,
  from: l.from ?? null,
  until: l.until ?? null,
  restrictions: l.restrictions ?? [],
});

/** A layer's name (as the API shows it: "Layer N" when unnamed) by its id. */
export function layerNameOf(s: StoredSchedule, id: string): string {
  const i = s.row.layers.findIndex((l) => l.id === id);
  return i < 0 ? id : layerToApi(s.row.layers[i]!, i).name;
}

const by = (id: string | null, username: string) => ({ _id: id, username });

export function scheduleToApi(s: StoredSchedule, people: Map<string, OnCallPerson>, feed: boolean): OnCallScheduleInfo {
  const { row } = s;
  return {
    _id: row.id,
    id: row.id,
    name: row.name,
    description: row.description,
    timeZone: row.timeZone,
    layers: row.layers.map(layerToApi),
    overrides: s.overrides.map((o) => ({ _id: o.id, person: o.userId, start: o.startsAt.toISOString(), end: o.endsAt.toISOString(), createdBy: by(o.createdById, o.createdByName) })),
    swaps: s.swaps.map((w) => ({ _id: w.id, first: { layer: w.firstLayer, start: w.firstStart.toISOString() }, second: { layer: w.secondLayer, start: w.secondStart.toISOString() }, createdBy: by(w.createdById, w.createdByName) })),
    people: [...new Set(peopleNamed(s))].map((id) => people.get(id)!),
    feed,
    createdBy: by(row.createdById, row.createdByName),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Schedules as the API shows them, in three statements whatever their number. */
export async function presentSchedules(db: Db, list: StoredSchedule[]): Promise<OnCallScheduleInfo[]> {
  if (!list.length) return [];
  const people = await peopleOf(db, list.flatMap(peopleNamed));
  const ids = list.map((s) => s.row.id);
  const feeds = new Set((await db.select({ id: oncallFeedTokens.scheduleId }).from(oncallFeedTokens).where(inArray(oncallFeedTokens.scheduleId, ids))).map((f) => f.id));
  return list.map((s) => scheduleToApi(s, people, feeds.has(s.row.id)));
}

/** The schedules and layers whose rotation a user is in (a user leaves rotations before their account goes). */
export async function rotationsOf(db: Db, userId: string): Promise<{ schedule: string; layer: string }[]> {
  const rows = await db
    .select({ name: oncallSchedules.name, layers: oncallSchedules.layers })
    .from(oncallSchedules)
    .where(sql`${oncallSchedules.layers} @> ${JSON.stringify([{ participants: [userId] }])}::jsonb`)
    .orderBy(asc(oncallSchedules.nameLc));
  return rows.flatMap((r) => r.layers.flatMap((l, i) => (l.participants.includes(userId) ? [{ schedule: r.name, layer: l.name ?? `Layer ${i + 1}` }] : [])));
}
