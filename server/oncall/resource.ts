import { randomUUID } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import { createScheduleSchema, updateScheduleSchema, type LayerInput, type OnCallScheduleInfo } from '../contract/oncall';
import type { Db } from '../db/client';
import { oncallSchedules } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import type { ResourceDef } from '../routes/resource';
import { auditTarget } from '../audit/trail';
import type { Layer } from './model';
import { allSchedules, checkPeople, compileOrRefuse, definitionOf, layerPeople, lockSchedule, presentSchedules, scheduleTarget, touched, type ScheduleRow } from './store';

/** A layer as stored from what the API was given: an id of its own, "Layer N" when unnamed, no empty optionals. */
export function layerOf(input: LayerInput, index: number, id: string = randomUUID()): Layer {
  return {
    id,
    name: input.name ?? `Layer ${index + 1}`,
    participants: input.participants,
    shift: input.shift,
    start: input.start,
    handoff: input.handoff,
    ...(input.from ? { from: input.from } : {}),
    ...(input.until ? { until: input.until } : {}),
    ...(input.restrictions?.length ? { restrictions: input.restrictions } : {}),
  };
}

/** What a schedule's row alone says; `enrich` adds its layers, overrides, swaps and people. */
const empty = (row: ScheduleRow): OnCallScheduleInfo => ({
  _id: row.id,
  id: row.id,
  name: row.name,
  description: row.description,
  timeZone: row.timeZone,
  layers: [],
  overrides: [],
  swaps: [],
  people: [],
  feed: false,
  createdBy: { _id: row.createdById, username: row.createdByName },
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Layer names are how commands and people name layers: one per name in a schedule (400 naming the field). */
export function checkLayerNames(layers: Layer[], at: (i: number) => string): void {
  const seen = new Set<string>();
  layers.forEach((l, i) => {
    const key = (l.name ?? '').toLowerCase();
    if (seen.has(key)) throw badRequest(`${at(i)}: another layer is already called "${l.name}"`, at(i));
    seen.add(key);
  });
}

const peopleOf = (layers: Layer[]) => layers.flatMap((l, i) => layerPeople(l, `layers.${i}.participants`));

/** A schedule name is unique case-insensitively: the command line names schedules by it. */
export async function checkScheduleName(tx: Db, name: string, except?: string): Promise<void> {
  const clash = await tx
    .select({ id: oncallSchedules.id })
    .from(oncallSchedules)
    .where(and(sql`lower(${oncallSchedules.name}) = ${name.toLowerCase()}`, except ? ne(oncallSchedules.id, except) : undefined))
    .limit(1);
  if (clash.length) throw conflict(`An on-call schedule called "${name}" already exists`, 'name');
}


/**
 * On-call schedules as SPEC's generic list / one / create / update / delete (issue 27 §1). Every
 * signed-in person reads them (who is on call is everyone's business); admins and sysadmins change
 * them (`oncall.write`), as they edit notification groups and escalation.
 */
export function scheduleResource(db: Db): ResourceDef<ScheduleRow, OnCallScheduleInfo> {
  return {
    name: 'oncall-schedules',
    table: oncallSchedules,
    id: oncallSchedules.id,
    toApi: empty,
    read: 'read',
    sortable: { name: oncallSchedules.nameLc as never, createdAt: oncallSchedules.createdAt },
    filterable: { name: { column: oncallSchedules.name, lower: oncallSchedules.nameLc as never, ops: ['contains', 'eq'] } },
    search: [{ lower: oncallSchedules.nameLc as never }],
    defaultSort: { by: 'name', direction: 'asc' },
    target: scheduleTarget,
    conflicts: { oncall_schedules_name_lower_idx: { field: 'name', message: 'An on-call schedule with this name already exists' } },
    // Layers, overrides, swaps and people: read for the answer's schedules, in four statements.
    async enrich(items) {
      const byId = new Map((await allSchedules(db, { ids: items.map((i) => i._id) })).map((s) => [s.row.id, s]));
      return presentSchedules(
        db,
        items.map((i) => byId.get(i._id)!),
      );
    },
    create: {
      permission: 'oncall.write',
      schema: createScheduleSchema,
      async toRow(input: { name: string; description: string; timeZone: string; layers: LayerInput[] }, { db: tx, user }) {
        const layers = input.layers.map((l, i) => layerOf(l, i));
        checkLayerNames(layers, (i) => `layers.${i}.name`);
        compileOrRefuse({ timeZone: input.timeZone, layers });
        await checkPeople(tx, peopleOf(layers));
        await checkScheduleName(tx, input.name);
        const now = new Date();
        return { name: input.name, description: input.description, timeZone: input.timeZone, layers, createdById: user._id, createdByName: user.username, createdAt: now, updatedAt: now };
      },
      // The people after the schedule, so the record names the schedule first.
      async after(created, { db: tx, request }) {
        auditTarget(request, ...(await checkPeople(tx, peopleOf(created.layers))));
      },
    },
    update: {
      permission: 'oncall.write',
      schema: updateScheduleSchema,
      async toRow(input: { name?: string; description?: string; timeZone?: string }, existing, { db: tx }) {
        const stored = await lockSchedule(tx, existing.id);
        // A new zone moves every wall-clock time: the swaps must still name shifts that start then.
        if (input.timeZone !== undefined) compileOrRefuse(definitionOf({ ...stored, row: { ...stored.row, timeZone: input.timeZone } }), (f) => (f === 'timeZone' ? f : `timeZone`));
        if (input.name !== undefined) await checkScheduleName(tx, input.name, existing.id);
        return { ...input, updatedAt: touched };
      },
    },
    remove: { permission: 'oncall.write' },
  };
}
