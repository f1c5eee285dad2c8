import { WEEKDAYS, parseDate, parseInstant, parseTimeOfDay, type FieldError, type Restriction, type Schedule } from './model';
import { isTimeZone } from './zone';

/** The longest shift a layer may have: a year, on the wall clock. */
export const MAX_SHIFT_DAYS = 366;
const UNIT_DAYS = { hours: 1 / 24, days: 1, weeks: 7 } as const;

const isText = (v: unknown, max = 200): v is string => typeof v === 'string' && v.trim().length > 0 && v.length <= max;

function restrictionErrors(r: Restriction, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const day = (d: unknown, field: string) => {
    if (!WEEKDAYS.includes(d as never)) errors.push({ field, message: `${field}: "${String(d)}" is not a weekday (${WEEKDAYS.join(', ')})` });
  };
  const time = (t: unknown, field: string) => {
    if (parseTimeOfDay(t) === null) errors.push({ field, message: `${field}: give a time of day as HH:MM (00:00–23:59), not "${String(t)}"` });
  };
  if (r.type === 'daily') {
    if (r.days !== undefined) {
      if (!Array.isArray(r.days) || r.days.length === 0) errors.push({ field: `${at}.days`, message: `${at}.days: name at least one weekday, or leave days out for every day` });
      else r.days.forEach((d, i) => day(d, `${at}.days.${i}`));
    }
    time(r.from, `${at}.from`);
    time(r.to, `${at}.to`);
  } else if (r.type === 'weekly') {
    day(r.from?.day, `${at}.from.day`);
    time(r.from?.time, `${at}.from.time`);
    day(r.to?.day, `${at}.to.day`);
    time(r.to?.time, `${at}.to.time`);
  } else {
    errors.push({ field: `${at}.type`, message: `${at}.type: a restriction is "daily" or "weekly"` });
  }
  return errors;
}

/**
 * Everything about a schedule that can be checked field by field: the zone, each layer, each
 * override and the overrides' ranges against each other. Swaps are checked once the layers are
 * compiled (a swap names shifts, which only the rotation knows). An empty list means valid.
 */
export function shapeErrors(s: Schedule): FieldError[] {
  const errors: FieldError[] = [];
  const add = (field: string, message: string) => errors.push({ field, message: `${field}: ${message}` });
  if (!isText(s.timeZone, 64) || !isTimeZone(s.timeZone)) add('timeZone', `"${String(s.timeZone)}" is not an IANA time zone (e.g. UTC, Europe/London, America/New_York)`);
  if (!Array.isArray(s.layers) || s.layers.length === 0) add('layers', 'a schedule needs at least one layer');
  const layerIds = new Set<string>();
  (Array.isArray(s.layers) ? s.layers : []).forEach((layer, i) => {
    const at = `layers.${i}`;
    if (!isText(layer.id, 100)) add(`${at}.id`, 'a layer needs an id');
    else if (layerIds.has(layer.id)) add(`${at}.id`, `another layer already has the id "${layer.id}"`);
    else layerIds.add(layer.id);
    if (!Array.isArray(layer.participants) || layer.participants.length === 0) add(`${at}.participants`, 'a layer needs at least one person in its rotation');
    else layer.participants.forEach((p, j) => isText(p) || add(`${at}.participants.${j}`, 'name a person'));
    const length = layer.shift?.length;
    const unit = layer.shift?.unit;
    if (unit !== 'hours' && unit !== 'days' && unit !== 'weeks') add(`${at}.shift.unit`, 'the shift length is in "hours", "days" or "weeks"');
    if (typeof length !== 'number' || !Number.isInteger(length) || length < 1) add(`${at}.shift.length`, `the shift length must be a whole number of at least 1, not ${JSON.stringify(length)}`);
    else if (unit in UNIT_DAYS && length * UNIT_DAYS[unit as keyof typeof UNIT_DAYS] > MAX_SHIFT_DAYS) add(`${at}.shift.length`, `a shift lasts at most ${MAX_SHIFT_DAYS} days`);
    const start = parseDate(layer.start);
    if (start === null) add(`${at}.start`, `give the first shift's date as YYYY-MM-DD, not "${String(layer.start)}"`);
    else if (start < Date.UTC(1970, 0, 1) || start >= Date.UTC(2200, 0, 1)) add(`${at}.start`, 'the first shift is between 1970 and 2199');
    if (parseTimeOfDay(layer.handoff) === null) add(`${at}.handoff`, `give the handoff time as HH:MM (00:00–23:59), not "${String(layer.handoff)}"`);
    const from = layer.from === undefined ? null : parseInstant(layer.from);
    const until = layer.until === undefined ? null : parseInstant(layer.until);
    if (layer.from !== undefined && from === null) add(`${at}.from`, `"${String(layer.from)}" is not an instant (e.g. 2026-12-07T09:00:00Z)`);
    if (layer.until !== undefined && until === null) add(`${at}.until`, `"${String(layer.until)}" is not an instant (e.g. 2026-12-07T09:00:00Z)`);
    if (from !== null && until !== null && until <= from) add(`${at}.until`, 'the layer must end after it takes effect');
    if (layer.restrictions !== undefined) {
      if (!Array.isArray(layer.restrictions)) add(`${at}.restrictions`, 'restrictions are a list');
      else layer.restrictions.forEach((r, j) => errors.push(...restrictionErrors(r, `${at}.restrictions.${j}`)));
    }
  });
  const overrides = s.overrides ?? [];
  if (!Array.isArray(overrides)) add('overrides', 'overrides are a list');
  const ranges: { i: number; start: number; end: number; id: string }[] = [];
  const overrideIds = new Set<string>();
  (Array.isArray(overrides) ? overrides : []).forEach((o, i) => {
    const at = `overrides.${i}`;
    if (!isText(o.id, 100)) add(`${at}.id`, 'an override needs an id');
    else if (overrideIds.has(o.id)) add(`${at}.id`, `another override already has the id "${o.id}"`);
    else overrideIds.add(o.id);
    if (!isText(o.person)) add(`${at}.person`, 'name the person who covers');
    const start = parseInstant(o.start);
    const end = parseInstant(o.end);
    if (start === null) add(`${at}.start`, `"${String(o.start)}" is not an instant (e.g. 2026-12-07T09:00:00Z)`);
    if (end === null) add(`${at}.end`, `"${String(o.end)}" is not an instant (e.g. 2026-12-07T17:00:00Z)`);
    if (start !== null && end !== null) {
      if (end <= start) add(`${at}.end`, `the override ends (${o.end}) before or when it starts (${o.start})`);
      else ranges.push({ i, start, end, id: o.id });
    }
  });
  ranges.sort((a, b) => a.start - b.start || a.i - b.i);
  // Overrides never overlap: "who covers" must have one answer. Compared with the furthest end so far.
  let furthest: (typeof ranges)[number] | null = null;
  for (const r of ranges) {
    if (furthest && r.start < furthest.end) {
      const later = r.i > furthest.i ? r : furthest;
      const other = later === r ? furthest : r;
      add(`overrides.${later.i}`, `overlaps override ${other.i} ("${other.id}", ${new Date(other.start).toISOString()} to ${new Date(other.end).toISOString()})`);
    }
    if (!furthest || r.end > furthest.end) furthest = r;
  }
  if (s.swaps !== undefined && !Array.isArray(s.swaps)) add('swaps', 'swaps are a list');
  return errors;
}
