import { z } from 'zod';
import { isUuid } from '../../server/contract/ids';
import type { LayerInput, OnCallScheduleInfo, ScheduleLayer } from '../../server/contract/oncall';
import type { Api } from '../../src/api/client';
import { ApiError } from '../../src/api/client';
import { getSchedule, listSchedules } from '../../src/api/oncall';
import type { ArgSpec } from '../define-command';
import { CommandError } from '../registry';
import { timeSchema } from '../silence/matcher-fields';
import { resolveUser } from '../user/resolve-user';

/** `schedule` arguments: a schedule's id or its name (any case); Tab completes names. */
export const scheduleArg = { name: 'schedule', label: 'Schedule', kind: 'entity', entity: 'schedule', positional: true } as const satisfies ArgSpec;

export async function resolveSchedule(api: Api, ref: string): Promise<OnCallScheduleInfo> {
  const value = ref.trim();
  if (!value) throw new CommandError('Name an on-call schedule: its name or id');
  if (isUuid(value)) {
    try {
      return (await getSchedule(api, value)).result;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const { result } = await listSchedules(api, { pageNumber: 1, pageSize: 2, filter: { name: { eq: value } } });
  const exact = result.data.find((s) => s.name.toLowerCase() === value.toLowerCase());
  if (exact) return exact;
  const { result: some } = await listSchedules(api, { pageNumber: 1, pageSize: 2, search: value });
  if (some.data.length === 1) return some.data[0]!;
  throw new CommandError(some.data.length ? `Several schedules match "${value}": give the whole name` : `No on-call schedule matches "${value}"`);
}

const UNITS = { h: 'hours', d: 'days', w: 'weeks' } as const;

/** "12h", "1d", "2 weeks", "daily", "weekly" → a shift length. */
export const shiftSchema = z.string().transform((v, ctx) => {
  const text = v.trim().toLowerCase();
  if (text === 'daily') return { length: 1, unit: 'days' as const };
  if (text === 'weekly') return { length: 1, unit: 'weeks' as const };
  const m = /^(\d+)\s*(h|hours?|d|days?|w|weeks?)$/.exec(text);
  if (!m) {
    ctx.addIssue({ code: 'custom', message: 'shift: give a length like 12h, 1d, 1w, daily or weekly' });
    return z.NEVER;
  }
  return { length: Number(m[1]), unit: UNITS[m[2]![0] as keyof typeof UNITS] };
});

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
type Day = (typeof DAYS)[number];

function daysOf(text: string): Day[] | null {
  if (text === 'weekdays') return ['mon', 'tue', 'wed', 'thu', 'fri'];
  if (text === 'weekends') return ['sat', 'sun'];
  const out: Day[] = [];
  for (const part of text.split(',')) {
    const range = /^([a-z]{3})-([a-z]{3})$/.exec(part);
    if (range) {
      const [a, b] = [DAYS.indexOf(range[1] as Day), DAYS.indexOf(range[2] as Day)];
      if (a < 0 || b < 0) return null;
      for (let i = a; ; i = (i + 1) % 7) {
        out.push(DAYS[i]!);
        if (i === b) break;
      }
    } else if (DAYS.includes(part as Day)) out.push(part as Day);
    else return null;
  }
  return out;
}

/**
 * When a layer's people are on call within their shift: "mon-fri 09:00-18:00", "09:00-17:00"
 * (every day), "fri 18:00 - mon 09:00" (one time-of-week range), several separated by ";";
 * "always" for none.
 */
export const hoursSchema = z.string().transform((v, ctx) => {
  const text = v.trim().toLowerCase();
  if (!text || text === 'always') return [];
  const out: NonNullable<LayerInput['restrictions']> = [];
  for (const part of text.split(';').map((p) => p.trim()).filter(Boolean)) {
    const weekly = /^([a-z]{3})\s+(\d\d:\d\d)\s*-\s*([a-z]{3})\s+(\d\d:\d\d)$/.exec(part);
    const daily = /^(?:([a-z,-]+)\s+)?(\d\d:\d\d)\s*-\s*(\d\d:\d\d)$/.exec(part);
    if (weekly && DAYS.includes(weekly[1] as Day) && DAYS.includes(weekly[3] as Day)) out.push({ type: 'weekly', from: { day: weekly[1] as Day, time: weekly[2]! }, to: { day: weekly[3] as Day, time: weekly[4]! } });
    else if (daily && (!daily[1] || daysOf(daily[1]))) out.push({ type: 'daily', ...(daily[1] ? { days: daysOf(daily[1])! } : {}), from: daily[2]!, to: daily[3]! });
    else {
      ctx.addIssue({ code: 'custom', message: `hours: "${part}" is not like "mon-fri 09:00-18:00", "09:00-17:00" or "fri 18:00 - mon 09:00"` });
      return z.NEVER;
    }
  }
  return out;
});

/** What schedule.create, schedule.add-layer and schedule.edit-layer take to describe a layer. */
export const layerShape = {
  people: z.string().trim().min(1).max(2000).optional(),
  shift: shiftSchema.optional(),
  handoff: z.string().trim().max(5).optional(),
  start: z.string().trim().max(10).optional(),
  from: timeSchema('from').optional(),
  until: timeSchema('until').optional(),
  hours: hoursSchema.optional(),
};

export const layerArgs = [
  { name: 'people', label: 'People in rotation order', kind: 'text', optional: true, placeholder: 'Usernames, comma-separated, e.g. ana,ben' },
  { name: 'shift', label: 'Shift length', kind: 'text', optional: true, placeholder: 'e.g. 1w, 1d, 12h (default 1w)' },
  { name: 'handoff', label: 'Handoff time', kind: 'text', optional: true, placeholder: 'HH:MM in the schedule’s zone (default 09:00)' },
  { name: 'start', label: 'First shift’s date', kind: 'text', optional: true, placeholder: 'YYYY-MM-DD (default today)' },
  { name: 'hours', label: 'On call only during', kind: 'text', optional: true, placeholder: 'e.g. mon-fri 09:00-18:00 (default always)' },
  { name: 'from', label: 'Takes effect', kind: 'datetime', optional: true },
  { name: 'until', label: 'Ends', kind: 'datetime', optional: true },
] as const satisfies readonly ArgSpec[];

/** Usernames, emails or ids, comma-separated, as user ids in that order. */
export async function peopleIds(api: Api, people: string): Promise<string[]> {
  const refs = people.split(',').map((p) => p.trim()).filter(Boolean);
  const ids: string[] = [];
  for (const ref of refs) ids.push((await resolveUser(api, ref))._id);
  return ids;
}

/** Today's date in a time zone, YYYY-MM-DD (in UTC for a name that is not a zone: the server then refuses the zone, naming it). */
export function todayIn(timeZone: string, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** A layer's fields given on the command line, as the API takes them (only those given). */
export async function layerFields(api: Api, input: { [K in keyof typeof layerShape]?: z.output<(typeof layerShape)[K]> }): Promise<Partial<LayerInput>> {
  return {
    ...(input.people !== undefined ? { participants: await peopleIds(api, input.people) } : {}),
    ...(input.shift !== undefined ? { shift: input.shift } : {}),
    ...(input.handoff !== undefined ? { handoff: input.handoff } : {}),
    ...(input.start !== undefined ? { start: input.start } : {}),
    ...(input.from !== undefined ? { from: input.from } : {}),
    ...(input.until !== undefined ? { until: input.until } : {}),
    ...(input.hours !== undefined ? { restrictions: input.hours } : {}),
  };
}

const UNIT_WORDS = { hours: 'hour', days: 'day', weeks: 'week' } as const;

/** "primary: ana → ben, every week at 09:00 from 2026-12-07" */
export function layerSummary(l: ScheduleLayer, people: OnCallScheduleInfo['people']): string {
  const name = (id: string) => people.find((p) => p._id === id)?.username ?? id;
  const shift = l.shift.length === 1 ? UNIT_WORDS[l.shift.unit] : `${l.shift.length} ${l.shift.unit}`;
  return `${l.name}: ${l.participants.map(name).join(' → ')}, every ${shift} at ${l.handoff} from ${l.start}${l.restrictions.length ? ` (${l.restrictions.length} restriction${l.restrictions.length === 1 ? '' : 's'})` : ''}`;
}

/** An instant for messages: "2026-03-29 08:00 UTC". */
export const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
