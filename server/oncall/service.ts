import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { AuditScope } from '../audit/trail';
import type { Whoami } from '../contract/auth';
import type { FinalSchedule, LayerInput, LayerUpdate, MyShift, OnCallScheduleInfo, OverrideInput, ScheduleGaps, SwapInput, WhoIsOnCall } from '../contract/oncall';
import type { Db } from '../db/client';
import { oncallOverrides, oncallSchedules, oncallSwaps } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { parseInstant, type Layer, type Source } from './model';
import { checkLayerNames, layerOf } from './resource';
import type { OnCallSchedule } from './schedule';
import { compiledById, compiledSchedule, compiledSchedules, type Answer, type CompiledSchedule } from './compiled';
import { checkPeople, compileOrRefuse, definitionOf, layerNameOf, layerPeople, layerToApi, lockSchedule, peopleOf, presentSchedules, scheduleTarget, touchSchedule, touched, type StoredSchedule } from './store';

const DAY = 86_400_000;
/** The longest range the final schedule is answered for (a timeline of two months). */
export const MAX_FINAL_DAYS = 62;

const present = async (db: Db, s: StoredSchedule): Promise<OnCallScheduleInfo> => (await presentSchedules(db, [s]))[0]!;

/** A layer of a schedule named by its id, its name (any case) or its 1-based number; 404 otherwise. */
export function findLayer(s: StoredSchedule, ref: string): number {
  const layers = s.row.layers;
  let i = layers.findIndex((l) => l.id === ref);
  if (i < 0) i = layers.findIndex((l) => (l.name ?? '').toLowerCase() === ref.toLowerCase());
  if (i < 0 && /^\d+$/.test(ref) && Number(ref) >= 1 && Number(ref) <= layers.length) i = Number(ref) - 1;
  if (i < 0) throw notFound(`Schedule "${s.row.name}" has no layer "${ref}" (layers: ${layers.map((l, j) => `${j + 1} ${l.name ?? ''}`.trim()).join(', ')})`);
  return i;
}

/** The core's field of layer i as the layer request's own field (`layers.2.participants` → `participants`). */
const ofLayer = (i: number) => (field: string) => (field.startsWith(`layers.${i}.`) ? field.slice(`layers.${i}.`.length) : field === 'layers' ? 'layers' : field.startsWith('swaps.') ? 'layer' : field);

async function saveLayers(tx: Db, s: StoredSchedule, layers: Layer[], changed: number | null, audit: AuditScope): Promise<StoredSchedule> {
  checkLayerNames(layers, () => 'name');
  compileOrRefuse(definitionOf(s, layers), changed === null ? (f) => (f.startsWith('swaps.') || f === 'layers' ? 'layer' : f) : ofLayer(changed));
  if (changed !== null) audit.target(...(await checkPeople(tx, layerPeople(layers[changed]!, 'participants'))));
  const [row] = await tx.update(oncallSchedules).set({ layers, updatedAt: touched }).where(eq(oncallSchedules.id, s.row.id)).returning();
  return { ...s, row: row! };
}

/** Adds a layer after the others (it wins over them where it has someone on call). */
export async function addLayer(tx: Db, input: { id: string; layer: LayerInput }, _actor: Whoami, audit: AuditScope): Promise<OnCallScheduleInfo> {
  const s = await lockSchedule(tx, input.id);
  audit.target(scheduleTarget(s.row));
  const layers = [...s.row.layers, layerOf(input.layer, s.row.layers.length)];
  return present(tx, await saveLayers(tx, s, layers, layers.length - 1, audit));
}

/** Changes a layer's fields; the rest of it, and its place among the layers, stay. */
export async function editLayer(tx: Db, input: { id: string; layer: string; changes: LayerUpdate }, _actor: Whoami, audit: AuditScope): Promise<OnCallScheduleInfo> {
  const s = await lockSchedule(tx, input.id);
  audit.target(scheduleTarget(s.row));
  const i = findLayer(s, input.layer);
  const old = layerToApi(s.row.layers[i]!, i);
  const merged = { ...old, ...input.changes } as LayerInput & { from: string | null; until: string | null };
  const layers = s.row.layers.map((l, j) => (j === i ? layerOf({ ...merged, from: merged.from ?? undefined, until: merged.until ?? undefined }, i, l.id) : l));
  return present(tx, await saveLayers(tx, s, layers, i, audit));
}

/** Removes a layer and the swaps that name its shifts; a schedule keeps at least one layer. */
export async function removeLayer(tx: Db, input: { id: string; layer: string }, _actor: Whoami, audit: AuditScope): Promise<OnCallScheduleInfo> {
  const s = await lockSchedule(tx, input.id);
  audit.target(scheduleTarget(s.row));
  const i = findLayer(s, input.layer);
  const gone = s.row.layers[i]!.id;
  if (s.row.layers.length === 1) throw badRequest('layer: a schedule needs at least one layer; delete the schedule instead', 'layer');
  await tx.delete(oncallSwaps).where(and(eq(oncallSwaps.scheduleId, s.row.id), sql`(${oncallSwaps.firstLayer} = ${gone} or ${oncallSwaps.secondLayer} = ${gone})`));
  const swaps = s.swaps.filter((w) => w.firstLayer !== gone && w.secondLayer !== gone);
  return present(tx, await saveLayers(tx, { ...s, swaps }, s.row.layers.filter((_, j) => j !== i), null, audit));
}

const when = (ms: number) => new Date(ms).toISOString().replace(':00.000Z', 'Z').replace('.000Z', 'Z');

/** Puts someone on call for a range over every layer; it may not overlap another override (400 naming `start`). */
export async function addOverride(tx: Db, input: { id: string } & OverrideInput, actor: Whoami, audit: AuditScope): Promise<OnCallScheduleInfo> {
  const s = await lockSchedule(tx, input.id);
  audit.target(scheduleTarget(s.row));
  const start = instantOf(input.start, 'start');
  const end = instantOf(input.end, 'end');
  if (end <= start) throw badRequest(`end: the override ends (${input.end}) before or when it starts (${input.start})`, 'end');
  const clash = s.overrides.find((o) => o.startsAt.getTime() < end && start < o.endsAt.getTime());
  if (clash) {
    const who = (await peopleOf(tx, [clash.userId])).get(clash.userId)!.username;
    throw badRequest(`start: overlaps ${who}'s override from ${when(clash.startsAt.getTime())} to ${when(clash.endsAt.getTime())}; overrides never overlap`, 'start');
  }
  audit.target(...(await checkPeople(tx, [{ field: 'user', id: input.user }])));
  const row = { id: randomUUID(), scheduleId: s.row.id, userId: input.user, startsAt: new Date(start), endsAt: new Date(end), createdById: actor._id, createdByName: actor.username, createdAt: new Date() };
  const next = { ...s, overrides: [...s.overrides, row].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime()) };
  compileOrRefuse(definitionOf(next), (f) => (f.startsWith('overrides.') ? (f.split('.')[2] ?? 'start') : f));
  await tx.insert(oncallOverrides).values(row);
  return present(tx, { ...next, row: await touchSchedule(tx, s.row.id) });
}

export async function removeOverride(tx: Db, input: { id: string; override: string }, _actor: Whoami, audit: AuditScope): Promise<OnCallScheduleInfo> {
  const s = await lockSchedule(tx, input.id);
  audit.target(scheduleTarget(s.row));
  if (!s.overrides.some((o) => o.id === input.override)) throw notFound(`Schedule "${s.row.name}" has no override with id "${input.override}"`);
  await tx.delete(oncallOverrides).where(eq(oncallOverrides.id, input.override));
  return present(tx, { row: await touchSchedule(tx, s.row.id), swaps: s.swaps, overrides: s.overrides.filter((o) => o.id !== input.override) });
}

/** Swaps the people of two shifts (each named by its layer — id, name or number — and the instant it starts). */
export async function addSwap(tx: Db, input: { id: string } & SwapInput, actor: Whoami, audit: AuditScope): Promise<OnCallScheduleInfo> {
  const s = await lockSchedule(tx, input.id);
  audit.target(scheduleTarget(s.row));
  const ends = (['first', 'second'] as const).map((which) => {
    const ref = input[which];
    const start = instantOf(ref.start, `${which}.start`);
    let i: number;
    try {
      i = findLayer(s, ref.layer);
    } catch (error) {
      throw badRequest(`${which}.layer: ${(error as Error).message}`, `${which}.layer`);
    }
    return { layer: s.row.layers[i]!.id, start: new Date(start) };
  });
  const row = { id: randomUUID(), scheduleId: s.row.id, firstLayer: ends[0]!.layer, firstStart: ends[0]!.start, secondLayer: ends[1]!.layer, secondStart: ends[1]!.start, createdById: actor._id, createdByName: actor.username, createdAt: new Date() };
  const next = { ...s, swaps: [...s.swaps, row] };
  const n = s.swaps.length;
  compileOrRefuse(definitionOf(next), (f) => (f.startsWith(`swaps.${n}.`) ? f.slice(`swaps.${n}.`.length) : f));
  await tx.insert(oncallSwaps).values(row);
  return present(tx, { ...next, row: await touchSchedule(tx, s.row.id) });
}

/** An instant given as text (or the fallback when none is); 400 naming the field when it is not one. */
export function instantOf(text: string | undefined, field: string, fallback?: number): number {
  if (text === undefined && fallback !== undefined) return fallback;
  const ms = parseInstant(text);
  if (ms === null) throw badRequest(`${field}: "${text}" is not an instant (e.g. 2026-12-07T09:00:00Z)`, field);
  return ms;
}

/** What put someone on call, with the layer's name and its shift's times (what a swap names). */
function sourceToApi(s: StoredSchedule, c: OnCallSchedule, source: Source, at: number) {
  if (source.type === 'override') return source;
  const shift = c.layerShifts(source.layer, at, at + 1).find((x) => x.index === source.shift)!;
  return { ...source, layerName: layerNameOf(s, source.layer), shiftStart: new Date(shift.start).toISOString(), shiftEnd: new Date(shift.end).toISOString() };
}

/** The schedule named (id or name; 404 when none is), or every schedule when none is named. */
async function schedulesAsked(db: Db, schedule: string | undefined): Promise<CompiledSchedule[]> {
  if (!schedule) return compiledSchedules(db);
  const one = await compiledSchedule(db, schedule);
  if (!one) throw notFound(`No on-call schedule "${schedule}"`);
  return [one];
}

/** Who is on call at an instant (default now), in one schedule (by id or name) or in each. */
export async function whoIsOnCall(db: Db, input: { schedule?: string; at?: string }, now = Date.now()): Promise<WhoIsOnCall[]> {
  const at = instantOf(input.at, 'at', now);
  const list = await schedulesAsked(db, input.schedule);
  const answers = list.map((s) => ({ s, on: s.who(at) }));
  const people = await peopleOf(
    db,
    answers.flatMap((a) => (a.on ? [a.on.person] : [])),
  );
  return answers.map(({ s, on }) => ({
    schedule: { _id: s.stored.row.id, name: s.stored.row.name },
    at: new Date(at).toISOString(),
    person: on ? people.get(on.person)! : null,
    ...(on ? answerToApi(s, on, at) : { source: null, until: null }),
  }));
}

/** A kept answer's source and end as the API shows them: the same for every instant the answer holds for. */
const shown = new WeakMap<Answer, { source: WhoIsOnCall['source']; until: string }>();
function answerToApi(s: CompiledSchedule, on: Answer, at: number) {
  let api = shown.get(on);
  if (!api) shown.set(on, (api = { source: sourceToApi(s.stored, s.compiled, on.source, at), until: new Date(on.until).toISOString() }));
  return api;
}

/** The final schedule of one schedule over [from, to): spans (who, and which layer or override) and gaps. */
export async function finalSchedule(db: Db, input: { id: string; from?: string; to?: string }, now = Date.now()): Promise<FinalSchedule> {
  const [found] = await compiledById(db, [input.id]);
  if (!found) throw notFound(`No on-call schedule with id "${input.id}"`);
  const { stored: s, compiled: c } = found;
  const from = instantOf(input.from, 'from', now);
  const to = instantOf(input.to, 'to', from + 14 * DAY);
  if (to <= from) throw badRequest('to: the range must end after it starts', 'to');
  if (to - from > MAX_FINAL_DAYS * DAY) throw badRequest(`to: the range is at most ${MAX_FINAL_DAYS} days`, 'to');
  const spans = c.final(from, to);
  const people = await peopleOf(
    db,
    spans.map((x) => x.person),
  );
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    from: iso(from),
    to: iso(to),
    spans: spans.map((x) => ({ start: iso(x.start), end: iso(x.end), person: people.get(x.person)!, source: sourceToApi(s, c, x.source, x.start) })),
    gaps: c.gaps(from, to).map((g) => ({ start: iso(g.start), end: iso(g.end) })),
  };
}

/** How far ahead a gap (an instant with nobody on call) is warned of (issue 27 §7). */
export const GAP_DAYS = 7;

/**
 * Where nobody is on call from now to GAP_DAYS on (the final schedule's gaps): for the schedule
 * named (id or name, 404 otherwise), with its gaps or none; or for every schedule that has a gap.
 */
export async function scheduleGaps(db: Db, input: { schedule?: string }, now = Date.now()): Promise<ScheduleGaps[]> {
  const list = await schedulesAsked(db, input.schedule);
  const iso = (ms: number) => new Date(ms).toISOString();
  const to = now + GAP_DAYS * DAY;
  return list.flatMap(({ stored, compiled }) => {
    const gaps = compiled.gaps(now, to);
    if (!gaps.length && !input.schedule) return [];
    return [{ schedule: { _id: stored.row.id, name: stored.row.name }, from: iso(now), to: iso(to), gaps: gaps.map((g) => ({ start: iso(g.start), end: iso(g.end) })) }];
  });
}

/** How far ahead a person's next shift is looked for (the shell shows it). */
const NEXT_SHIFT_DAYS = 14;

/** A person's current shift in any schedule (the one ending last when several), else their soonest next one. */
export async function myShift(db: Db, _input: object, actor: Whoami, now = Date.now()): Promise<MyShift> {
  const found = (await compiledSchedules(db))
    .filter(({ stored: s }) => s.row.layers.some((l) => l.participants.includes(actor._id)) || s.overrides.some((o) => o.userId === actor._id))
    .flatMap(({ stored: s, compiled: c }) => {
      const shift = c.shiftOf(actor._id, now, NEXT_SHIFT_DAYS * DAY);
      return shift ? [{ s, shift }] : [];
    })
    .sort((a, b) => Number(b.shift.current) - Number(a.shift.current) || (a.shift.current ? b.shift.end - a.shift.end : a.shift.start - b.shift.start));
  const first = found[0];
  if (!first) return null;
  const iso = (ms: number) => new Date(ms).toISOString();
  return { schedule: { _id: first.s.row.id, name: first.s.row.name }, start: iso(first.shift.start), end: iso(first.shift.end), current: first.shift.current };
}
