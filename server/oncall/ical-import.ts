/**
 * A schedule from an iCalendar file (RFC 5545) of the kind PagerDuty, Opsgenie and Grafana
 * OnCall export, or a team keeps in a shared calendar: one event per shift, or recurring events
 * (RRULE with EXDATE, edited occurrences by RECURRENCE-ID) in a TZID, UTC or floating time.
 *
 * ical.js parses and expands the recurrences (in wall-clock time: time zones are left to zone.ts,
 * with IANA rules rather than whatever VTIMEZONE the file carries, which is used only for zone
 * names that are not IANA). Occurrences over the import horizon are grouped into tracks (a
 * "[L2]" priority prefix or an "(Rotation)" suffix names one; overlapping events are split into
 * more), and each track becomes what reproduces it exactly, checked by recomputing it:
 *  - a rotation layer: back-to-back shifts of one wall-clock length with people in a fixed cycle
 *    (shifts someone else covered become overrides);
 *  - one person's weekly pattern (e.g. weekdays 13:00–22:00): a layer with restrictions;
 *  - otherwise overrides, one per event, for the horizon only.
 * The resulting schedule's final schedule equals the calendar's over the horizon (later tracks
 * win where events overlap); anything else is reported.
 */
import ICAL from 'ical.js';
import { WEEKDAYS, type FieldError, type Layer, type Override, type Restriction, type Schedule } from './model';
import { compileSchedule } from './schedule';
import { DAY, HOUR, MINUTE, MONDAY, WEEK, isTimeZone, mod, zoneOf, type Zone } from './zone';

type ICalTime = InstanceType<typeof ICAL.Time>;
type ICalComponent = InstanceType<typeof ICAL.Component>;

export interface PersonRef {
  /** As the file writes it (summary or attendee). */
  raw: string;
  name?: string;
  email?: string;
}

export interface ImportOptions {
  /** The imported schedule's zone (default: X-WR-TIMEZONE, else the events' most used IANA TZID, else UTC). */
  timeZone?: string;
  /** The horizon events are read over (default: now to 26 weeks on). */
  from: number;
  to?: number;
  /** Maps a person in the file to an Opsdeck person id; null when unknown (kept by name and reported). */
  resolvePerson?: (ref: PersonRef) => string | null;
}

export type ImportResult = { ok: true; schedule: Schedule; unknownPeople: PersonRef[]; warnings: string[] } | { ok: false; errors: FieldError[] };

interface Occurrence {
  start: number;
  end: number;
  person: string;
  track: string;
  finite: boolean;
}

const fail = (message: string): ImportResult => ({ ok: false, errors: [{ field: 'file', message: `file: ${message}` }] });

/** Who an event is for: its attendee, else its summary without PagerDuty's, Grafana's or Opsgenie's decorations. */
function personOf(v: ICalComponent): { ref: PersonRef; track: string } {
  const summary = String(v.getFirstPropertyValue('summary') ?? '').trim();
  let track = '';
  let text = summary;
  const level = /^\[L(\d+)\]\s*/i.exec(text);
  if (level) {
    track = `L${level[1]!.padStart(3, '0')}`;
    text = text.slice(level[0].length);
  }
  const pd = /^on[- ]call\s*[-:–]\s*(.+?)(?:\s+[-–]\s+(.+))?$/i.exec(text);
  if (pd) text = pd[1]!;
  const rotation = /^(.+?)\s*\(([^()]+)\)$/.exec(text);
  if (rotation) {
    text = rotation[1]!;
    track ||= `R${rotation[2]!}`;
  }
  text = text.replace(/^@/, '').trim();
  const attendee = v.getFirstProperty('attendee');
  const value = attendee ? String(attendee.getFirstValue() ?? '') : '';
  const email = /^mailto:(.+)$/i.exec(value)?.[1];
  const cn = attendee?.getParameter('cn');
  const name = (typeof cn === 'string' && cn) || text || undefined;
  return { ref: { raw: summary, ...(name ? { name } : {}), ...(email ? { email: email.toLowerCase() } : {}) }, track };
}

/** A time as an instant: UTC as it is, TZID in that zone, floating and all-day in the schedule's zone. */
function instantOf(t: ICalTime, tzid: string | undefined, zone: Zone, vtimezones: Map<string, InstanceType<typeof ICAL.Timezone>>): number | null {
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.isDate ? 0 : t.hour, t.isDate ? 0 : t.minute, t.isDate ? 0 : t.second);
  if (!t.isDate && t.zone?.tzid === 'UTC') return wall;
  if (t.isDate || !tzid) return zone.instantOf(wall);
  if (isTimeZone(tzid)) return zoneOf(tzid).instantOf(wall);
  const vtz = vtimezones.get(tzid);
  if (!vtz) return null;
  return wall - vtz.utcOffset(t) * 1000;
}

/** Reads every occurrence overlapping [from, to). */
function occurrences(root: ICalComponent, zone: Zone, from: number, to: number, warnings: string[], people: Map<string, PersonRef>): Occurrence[] {
  const vtimezones = new Map(root.getAllSubcomponents('vtimezone').map((c) => [String(c.getFirstPropertyValue('tzid')), new ICAL.Timezone(c)]));
  const events = root.getAllSubcomponents('vevent').filter((v) => String(v.getFirstPropertyValue('status') ?? '').toUpperCase() !== 'CANCELLED');
  const masters = new Map<string, InstanceType<typeof ICAL.Event>>();
  const exceptions: ICalComponent[] = [];
  for (const v of events) {
    if (v.hasProperty('recurrence-id')) exceptions.push(v);
    else masters.set(String(v.getFirstPropertyValue('uid') ?? `no-uid-${masters.size}`), new ICAL.Event(v));
  }
  for (const x of exceptions) {
    const master = masters.get(String(x.getFirstPropertyValue('uid')));
    if (master) master.relateException(x);
    else masters.set(`exception-${masters.size}`, new ICAL.Event(x));
  }
  const out: Occurrence[] = [];
  const unknownZones = new Set<string>();
  const read = (item: InstanceType<typeof ICAL.Event>, start: ICalTime, end: ICalTime, finite: boolean) => {
    const tzid = (p: string) => {
      const value = item.component.getFirstProperty(p)?.getParameter('tzid');
      return typeof value === 'string' ? value : undefined;
    };
    const startTz = tzid('dtstart');
    const s = instantOf(start, startTz, zone, vtimezones);
    const e = instantOf(end, tzid('dtend') ?? startTz, zone, vtimezones);
    if (s === null || e === null) return void unknownZones.add(startTz ?? '');
    if (e <= s || e <= from || s >= to) return;
    const { ref, track } = personOf(item.component);
    const key = ref.email ?? ref.name ?? ref.raw;
    if (!key) return void warnings.push(`An event at ${new Date(s).toISOString()} names nobody: left out`);
    people.set(key, ref);
    out.push({ start: s, end: e, person: key, track, finite });
  };
  for (const [, ev] of masters) {
    if (!ev.isRecurring()) {
      read(ev, ev.startDate, ev.endDate, true);
      continue;
    }
    const rule = ev.component.getFirstPropertyValue('rrule') as { count?: number | null; until?: unknown } | null;
    const finite = !!rule && (rule.count != null || rule.until != null);
    const it = ev.iterator();
    for (let n = 0, next = it.next(); next && n < 20_000; next = it.next(), n++) {
      const details = ev.getOccurrenceDetails(next);
      // Wall-clock times differ from instants by under a day: stop a day past the horizon.
      if (Date.UTC(details.startDate.year, details.startDate.month - 1, details.startDate.day) > to + DAY) break;
      read(details.item, details.startDate, details.endDate, finite);
    }
  }
  for (const z of unknownZones) warnings.push(`Events in the time zone "${z}" were left out: it is not an IANA zone and the file does not define it`);
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

interface Candidate {
  layers: Layer[];
  overrides: Occurrence[];
}

/** Splits a track's occurrences into lanes that never overlap (first fit). */
function lanes(occ: Occurrence[]): Occurrence[][] {
  const out: Occurrence[][] = [];
  for (const o of occ) {
    const lane = out.find((l) => l[l.length - 1]!.end <= o.start);
    if (lane) lane.push(o);
    else out.push([o]);
  }
  return out;
}

const hhmm = (wall: number) => new Date(wall).toISOString().slice(11, 16);
const date = (wall: number) => new Date(wall).toISOString().slice(0, 10);

function shiftOf(length: number): Layer['shift'] {
  if (length % WEEK === 0) return { length: length / WEEK, unit: 'weeks' };
  if (length % DAY === 0) return { length: length / DAY, unit: 'days' };
  return { length: length / HOUR, unit: 'hours' };
}

/** Candidate: a rotation of one wall-clock length from the lane's first full-length shift; events that are not whole shifts become overrides. */
function rotationCandidate(lane: Occurrence[], zone: Zone, id: (n: number) => string): Candidate | null {
  const length = (o: Occurrence) => zone.scheduleWall(o.end) - zone.scheduleWall(o.start);
  const counts = new Map<number, number>();
  for (const o of lane) if (length(o) % HOUR === 0) counts.set(length(o), (counts.get(length(o)) ?? 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  if (!best || best[1] < 2) return null;
  const L = best[0];
  const anchor = lane.find((o) => length(o) === L)!;
  const h0 = zone.scheduleWall(anchor.start);
  const shiftAt = (t: number) => Math.floor((zone.scheduleWall(t) - h0) / L);
  const people = new Map<number, string>();
  const overrides: Occurrence[] = [];
  for (const o of lane) {
    const k = shiftAt(o.start);
    const whole = zone.instantOf(h0 + k * L) === o.start && zone.instantOf(h0 + (k + 1) * L) === o.end;
    if (whole && !people.has(k)) people.set(k, o.person);
    else overrides.push(o);
  }
  const ks = [...people.keys()].sort((a, b) => a - b);
  const first = ks[0]!;
  // The smallest cycle of people consistent with every whole shift.
  for (let p = 1; p <= Math.min(ks.length, 50); p++) {
    const cycle = new Map<number, string>();
    if (!ks.every((k) => (cycle.get(mod(k - first, p)) ?? (cycle.set(mod(k - first, p), people.get(k)!), people.get(k))) === people.get(k))) continue;
    if (cycle.size < p) continue;
    const participants = Array.from({ length: p }, (_, i) => cycle.get(i)!);
    const start = h0 + first * L;
    const finite = lane.every((o) => o.finite);
    return {
      layers: [{ id: id(0), participants, shift: shiftOf(L), start: date(start), handoff: hhmm(start), from: new Date(lane[0]!.start).toISOString(), ...(finite ? { until: new Date(lane[lane.length - 1]!.end).toISOString() } : {}) }],
      overrides,
    };
  }
  return null;
}

/**
 * Candidate: the lane's most frequent person on a weekly pattern of wall-clock windows; the rest
 * become overrides. Occurrences the pattern has but the calendar does not (an EXDATE'd holiday)
 * split the layer into copies that end before and take effect after them (at most 8).
 */
function patternCandidate(lane: Occurrence[], zone: Zone, id: (n: number) => string): Candidate | null {
  const byPerson = new Map<string, number>();
  for (const o of lane) byPerson.set(o.person, (byPerson.get(o.person) ?? 0) + 1);
  const person = [...byPerson].sort((a, b) => b[1] - a[1])[0]![0];
  const own = lane.filter((o) => o.person === person);
  const others = lane.filter((o) => o.person !== person);
  const windows = new Map<string, [number, number]>();
  for (const o of own) {
    const s = zone.scheduleWall(o.start);
    const e = zone.scheduleWall(o.end);
    if (e - s >= WEEK || s % MINUTE !== 0 || e % MINUTE !== 0) return null;
    const at = mod(s - MONDAY, WEEK);
    windows.set(`${at}+${e - s}`, [at, e - s]);
  }
  if (windows.size > 21) return null;
  const restrictions: Restriction[] = [...windows.values()].map(([at, len]) => ({
    type: 'weekly',
    from: { day: WEEKDAYS[Math.floor(at / DAY)]!, time: hhmm(at) },
    to: { day: WEEKDAYS[Math.floor(mod(at + len, WEEK) / DAY)]!, time: hhmm(mod(at + len, WEEK)) },
  }));
  const firstWall = zone.scheduleWall(own[0]!.start);
  const monday = firstWall - mod(firstWall - MONDAY, WEEK);
  const lastEnd = own[own.length - 1]!.end;
  const starts = new Set(own.map((o) => `${o.start}-${o.end}`));
  const holes: { start: number; end: number }[] = [];
  for (let week = monday; zone.instantOf(week) < lastEnd; week += WEEK)
    for (const [at, len] of windows.values()) {
      const s = zone.instantOf(week + at);
      const e = zone.instantOf(week + at + len);
      if (s < own[0]!.start || e > lastEnd || e <= s || starts.has(`${s}-${e}`)) continue;
      const covered = subtract({ start: s, end: e, person, track: '', finite: true }, others).length === 0;
      if (!covered) holes.push({ start: s, end: e });
    }
  if (holes.length > 8) return null;
  holes.sort((a, b) => a.start - b.start);
  const finite = own.every((o) => o.finite);
  const layers: Layer[] = [];
  let from = own[0]!.start;
  for (const [i, hole] of [...holes, null].entries()) {
    const until = hole ? hole.start : finite ? lastEnd : null;
    layers.push({ id: id(i), participants: [person], shift: { length: 1, unit: 'weeks' }, start: date(monday), handoff: '00:00', from: new Date(from).toISOString(), ...(until !== null ? { until: new Date(until).toISOString() } : {}), restrictions });
    if (hole) from = hole.end;
  }
  return { layers, overrides: others };
}

/** Person-level spans: who is on call when, merged where the same person continues. */
function merged(spans: { start: number; end: number; person: string }[]): string[] {
  const out: { start: number; end: number; person: string }[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && last.end === s.start && last.person === s.person) last.end = s.end;
    else out.push({ ...s });
  }
  return out.map((s) => `${s.start}-${s.end}-${s.person}`);
}

/** Does layer + overrides reproduce the lane exactly over its own extent? */
function reproduces(c: Candidate, lane: Occurrence[], timeZone: string): boolean {
  const overrides: Override[] = c.overrides.map((o, i) => ({ id: `x${i}`, person: o.person, start: new Date(o.start).toISOString(), end: new Date(o.end).toISOString() }));
  const r = compileSchedule({ timeZone, layers: c.layers, overrides });
  if (!r.ok) return false;
  const from = lane[0]!.start;
  const to = Math.max(...lane.map((o) => o.end));
  return merged(r.schedule.final(from, to)).join() === merged(lane).join();
}

/** The candidate's overrides less those its layers already give (a shift cut in two around someone else's cover). */
function redundantDropped(c: Candidate, timeZone: string): Occurrence[] {
  const r = compileSchedule({ timeZone, layers: c.layers });
  if (!r.ok) return c.overrides;
  return c.overrides.filter((o) => {
    const spans = r.schedule.final(o.start, o.end);
    return !(spans.length > 0 && spans[0]!.start === o.start && spans.every((s, i) => s.person === o.person && (i === 0 || spans[i - 1]!.end === s.start)) && spans[spans.length - 1]!.end === o.end);
  });
}

/** Removes from [start, end) every range in `cover` (sorted); what is left, in order. */
function subtract(o: Occurrence, cover: { start: number; end: number }[]): Occurrence[] {
  let pieces = [o];
  for (const c of cover) pieces = pieces.flatMap((p) => (c.end <= p.start || c.start >= p.end ? [p] : [...(c.start > p.start ? [{ ...p, end: c.start }] : []), ...(c.end < p.end ? [{ ...p, start: c.end }] : [])]));
  return pieces;
}

export function importCalendar(text: string, options: ImportOptions): ImportResult {
  let root: ICalComponent;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch (error) {
    return fail(`not an iCalendar file (${error instanceof Error ? error.message : String(error)})`);
  }
  if (root.name !== 'vcalendar') return fail('not an iCalendar file (no VCALENDAR)');
  const tzids = root.getAllSubcomponents('vevent').map((v) => v.getFirstProperty('dtstart')?.getParameter('tzid')).filter((z): z is string => typeof z === 'string' && isTimeZone(z));
  const common = [...new Set(tzids)].sort((a, b) => tzids.filter((z) => z === b).length - tzids.filter((z) => z === a).length)[0];
  const declared = String(root.getFirstPropertyValue('x-wr-timezone') ?? '');
  const timeZone = options.timeZone ?? (isTimeZone(declared) ? declared : common ?? 'UTC');
  if (!isTimeZone(timeZone)) return { ok: false, errors: [{ field: 'timeZone', message: `timeZone: "${timeZone}" is not an IANA time zone (e.g. UTC, Europe/London, America/New_York)` }] };
  const zone = zoneOf(timeZone);
  const from = options.from;
  const to = options.to ?? from + 26 * WEEK;
  const warnings: string[] = [];
  const refs = new Map<string, PersonRef>();
  const occ = occurrences(root, zone, from, to, warnings, refs);
  if (!occ.length) return fail('the calendar has no events between the import’s start and end');
  // People: resolved once; unknown ones keep the name the file gives.
  const resolved = new Map<string, string>();
  const unknownPeople: PersonRef[] = [];
  for (const [key, ref] of refs) {
    const id = options.resolvePerson ? options.resolvePerson(ref) : key;
    if (id === null) unknownPeople.push(ref);
    resolved.set(key, id ?? key);
  }
  for (const o of occ) o.person = resolved.get(o.person)!;
  const tracks = [...new Set(occ.map((o) => o.track))].sort();
  const layers: Layer[] = [];
  const overridesByTrack: Occurrence[][] = [];
  for (const track of tracks) {
    const own = lanes(occ.filter((o) => o.track === track));
    if (own.length > 1) warnings.push(`${track ? `Track ${track}` : 'The calendar'} has shifts at the same time: Opsdeck has one person on call at a time, so where they overlap only one of them is imported`);
    const extras: Occurrence[] = [];
    for (const lane of own) {
      const id = (n: number) => `imported-${layers.length + n + 1}`;
      const c = [rotationCandidate(lane, zone, id), patternCandidate(lane, zone, id)].filter((x) => x !== null).find((x) => reproduces(x, lane, timeZone));
      if (c) {
        layers.push(...c.layers);
        extras.push(...redundantDropped(c, timeZone));
      } else {
        extras.push(...lane);
        warnings.push(`${lane.length} events ${track ? `of track ${track} ` : ''}follow no rotation Opsdeck can repeat: imported as overrides up to ${new Date(to).toISOString()}`);
      }
    }
    overridesByTrack.push(extras);
  }
  // Overrides win over every layer, so a lower track's overrides give way wherever a higher track has someone.
  const overrides: Occurrence[] = [];
  overridesByTrack.forEach((extras, i) => {
    const higher = occ.filter((o) => tracks.indexOf(o.track) > i).sort((a, b) => a.start - b.start);
    for (const o of extras) overrides.push(...subtract(o, higher));
  });
  overrides.sort((a, b) => a.start - b.start);
  // Within a track, later lanes' overrides win over earlier ones: trim what an override already covered.
  const flat: Override[] = [];
  let reach = -Infinity;
  for (const o of overrides) {
    const start = Math.max(o.start, reach);
    if (start < o.end) flat.push({ id: `imported-o${flat.length + 1}`, person: o.person, start: new Date(start).toISOString(), end: new Date(o.end).toISOString() });
    reach = Math.max(reach, o.end);
  }
  if (!layers.length) {
    // A schedule has at least one layer: this one ends before its rotation begins, so only the overrides put anyone on call.
    const first = occ[0]!;
    const day = date(zone.scheduleWall(first.start));
    layers.push({ id: 'imported-1', participants: [first.person], shift: { length: 1, unit: 'weeks' }, start: day, handoff: '00:00', until: new Date(zone.instantOf(Date.parse(`${day}T00:00:00Z`))).toISOString() });
    warnings.push('No rotation was found: the schedule is its overrides until a layer is added');
  }
  const schedule: Schedule = { timeZone, layers, overrides: flat };
  const check = compileSchedule(schedule);
  if (!check.ok) return { ok: false, errors: check.errors };
  return { ok: true, schedule, unknownPeople, warnings };
}
