import { z } from 'zod';
import { str } from './common';

/**
 * On-call schedules (issue 27, docs/oncall.md) as the API carries them. A schedule's definition is
 * the schedule core's model (server/oncall/model.ts) with people as user ids; what the shapes here
 * leave open (a real time zone, a calendar date, ranges that do not overlap) the core checks, each
 * refusal a 400 naming the field.
 */

const weekday = z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
const timeOfDay = str().max(5);
const instant = str().max(40);

export const restrictionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('daily'), days: z.array(weekday).max(7).optional(), from: timeOfDay, to: timeOfDay }).strict(),
  z.object({ type: z.literal('weekly'), from: z.object({ day: weekday, time: timeOfDay }).strict(), to: z.object({ day: weekday, time: timeOfDay }).strict() }).strict(),
]);

const layerFields = {
  name: str().trim().min(1).max(100),
  /** User ids in rotation order. */
  participants: z.array(str().max(64)).max(100),
  shift: z.object({ length: z.number(), unit: z.enum(['hours', 'days', 'weeks']) }).strict(),
  /** The date of the first shift, YYYY-MM-DD in the schedule's zone. */
  start: str().max(10),
  /** HH:MM in the schedule's zone. */
  handoff: timeOfDay,
  from: instant.nullable(),
  until: instant.nullable(),
  restrictions: z.array(restrictionSchema).max(50),
};

export const layerSchema = z.object({
  id: str(),
  name: str(),
  participants: z.array(str()),
  shift: z.object({ length: z.number(), unit: z.enum(['hours', 'days', 'weeks']) }),
  start: str(),
  handoff: str(),
  from: str().nullable(),
  until: str().nullable(),
  restrictions: z.array(restrictionSchema),
});
export type ScheduleLayer = z.infer<typeof layerSchema>;

/** POST …/layers: a new layer (it wins over the ones before it); `name` defaults to "Layer N". */
export const layerInputSchema = z
  .object({ ...layerFields, name: layerFields.name.optional(), from: layerFields.from.optional(), until: layerFields.until.optional(), restrictions: layerFields.restrictions.optional() })
  .strict();
export type LayerInput = z.input<typeof layerInputSchema>;

/** PATCH …/layers/:layer: any field; null clears `from` or `until`. */
export const layerUpdateSchema = z
  .object(layerFields)
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type LayerUpdate = z.input<typeof layerUpdateSchema>;

export const personSchema = z.object({ _id: str(), username: str(), email: str() });
export type OnCallPerson = z.infer<typeof personSchema>;

export const overrideSchema = z.object({ _id: str(), person: str(), start: str(), end: str(), createdBy: z.object({ _id: str().nullable(), username: str() }) });
export type ScheduleOverride = z.infer<typeof overrideSchema>;

const shiftRefSchema = z.object({ layer: str().max(100), start: instant }).strict();
export const swapSchema = z.object({ _id: str(), first: z.object({ layer: str(), start: str() }), second: z.object({ layer: str(), start: str() }), createdBy: z.object({ _id: str().nullable(), username: str() }) });
export type ScheduleSwap = z.infer<typeof swapSchema>;

export const scheduleSchema = z.object({
  _id: str(),
  id: str(),
  name: str(),
  description: str(),
  timeZone: str(),
  layers: z.array(layerSchema),
  overrides: z.array(overrideSchema),
  swaps: z.array(swapSchema),
  /** Everyone the schedule names (participants, overrides), by id. */
  people: z.array(personSchema),
  /** Whether the schedule has a calendar feed (its URL is shown once, when made). */
  feed: z.boolean(),
  createdBy: z.object({ _id: str().nullable(), username: str() }),
  createdAt: str(),
  updatedAt: str(),
});
export type OnCallScheduleInfo = z.infer<typeof scheduleSchema>;

const scheduleFields = {
  name: str().trim().min(1).max(100),
  description: str().max(500),
  /** An IANA time zone: every wall-clock time of the schedule is in it. */
  timeZone: str().max(64),
};

/** POST /api/oncall-schedules: a schedule has at least one layer from the start. */
export const createScheduleSchema = z
  .object({ name: scheduleFields.name, description: scheduleFields.description.default(''), timeZone: scheduleFields.timeZone, layers: z.array(layerInputSchema).max(20) })
  .strict();
export type CreateSchedule = z.input<typeof createScheduleSchema>;

export const updateScheduleSchema = z
  .object(scheduleFields)
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type UpdateSchedule = z.input<typeof updateScheduleSchema>;

export const overrideInputSchema = z.object({ user: str().max(64), start: instant, end: instant }).strict();
export type OverrideInput = z.input<typeof overrideInputSchema>;

export const swapInputSchema = z.object({ first: shiftRefSchema, second: shiftRefSchema }).strict();
export type SwapInput = z.input<typeof swapInputSchema>;

const sourceSchema = z.union([
  /** `shiftStart`, `shiftEnd`: the layer's shift (restrictions aside), as a swap names it by its start. */
  z.object({ type: z.literal('layer'), layer: str(), layerName: str(), shift: z.number().int(), shiftStart: str(), shiftEnd: str(), swap: str().optional() }),
  z.object({ type: z.literal('override'), override: str() }),
]);

/** GET /api/oncall/who: one schedule (`schedule`: id or name) or all, at an instant (default now). */
export const whoQuerySchema = z.object({ schedule: str().max(100).optional(), at: instant.optional() }).strict();
export const whoSchema = z.object({
  schedule: z.object({ _id: str(), name: str() }),
  at: str(),
  /** Null: nobody is on call then. */
  person: personSchema.nullable(),
  source: sourceSchema.nullable(),
  /** When the person's unbroken on-call time ends (null when nobody is on call). */
  until: str().nullable(),
});
export type WhoIsOnCall = z.infer<typeof whoSchema>;

/** GET /api/oncall/my-shift: the signed-in person's current shift, else their next one within 14 days (null: none). */
export const myShiftSchema = z
  .object({
    schedule: z.object({ _id: str(), name: str() }),
    /** From when to when they are on call without a break in that schedule. */
    start: str(),
    end: str(),
    current: z.boolean(),
  })
  .nullable();
export type MyShift = z.infer<typeof myShiftSchema>;

/** GET …/final: the final schedule over [from, to) (at most 62 days; default the next 14). */
export const finalQuerySchema = z.object({ from: instant.optional(), to: instant.optional() }).strict();
export const finalSpanSchema = z.object({ start: str(), end: str(), person: personSchema, source: sourceSchema });
export const finalScheduleSchema = z.object({ from: str(), to: str(), spans: z.array(finalSpanSchema), gaps: z.array(z.object({ start: str(), end: str() })) });
export type FinalSchedule = z.infer<typeof finalScheduleSchema>;

/** GET /api/oncall/gaps: where nobody is on call in the next 7 days, for one schedule (id or name) or every one that has such a gap. */
export const gapsQuerySchema = z.object({ schedule: str().max(100).optional() }).strict();
export const scheduleGapsSchema = z.object({
  schedule: z.object({ _id: str(), name: str() }),
  /** The range looked at: now to 7 days on. */
  from: str(),
  to: str(),
  gaps: z.array(z.object({ start: str(), end: str() })),
});
export type ScheduleGaps = z.infer<typeof scheduleGapsSchema>;

/** POST /api/oncall-schedules/import: a new schedule from an iCalendar file's text. */
export const importScheduleSchema = z
  .object({
    name: scheduleFields.name,
    description: scheduleFields.description.default(''),
    /** Default: the calendar's X-WR-TIMEZONE, else its most used TZID, else UTC. */
    timeZone: scheduleFields.timeZone.optional(),
    /** The file's text (a request is at most 1 MiB). */
    calendar: str().min(1).max(1_000_000),
    /** Where the events are read from (default now; 26 weeks on). */
    from: instant.optional(),
  })
  .strict();
export type ImportSchedule = z.input<typeof importScheduleSchema>;
export const importResultSchema = z.object({ schedule: scheduleSchema, warnings: z.array(str()) });

/** A calendar feed's secret URL: shown once, when made or rotated. */
export const feedUrlSchema = z.object({ url: str(), token: str(), prefix: str() });
export type FeedUrl = z.infer<typeof feedUrlSchema>;
export const feedQuerySchema = z.object({ token: str().max(200).optional() });
