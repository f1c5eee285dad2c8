/**
 * A naive on-call reference for the property tests: walks a range minute by minute and decides
 * each minute from the schedule's definition directly. It shares no code with schedule.ts or
 * zone.ts: local time comes from the Temporal polyfill (date-fns-tz 3.2's
 * getTimezoneOffset was found wrong around America/St_Johns' changes), the schedule clock is a running maximum of the wall
 * clock, restrictions are read from weekday names and HH:MM text, overrides are scanned in full.
 * Meant for minute-aligned schedules (every zone tested changes its clocks on whole minutes).
 */
import { Temporal } from '@js-temporal/polyfill';
import type { Layer, Restriction, Schedule } from '../model';

const MIN = 60_000;
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const offsetCache = new Map<string, Map<number, number>>();

/** The zone's offset at an instant, read from Temporal once per quarter hour (offsets change on quarter hours). */
function offsetReader(tz: string): (t: number) => number {
  let cache = offsetCache.get(tz);
  if (!cache) offsetCache.set(tz, (cache = new Map()));
  const memo = cache;
  const at = (ms: number) => {
    let o = memo.get(ms);
    if (o === undefined) memo.set(ms, (o = Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(tz).offsetNanoseconds / 1e6));
    return o;
  };
  let hour = NaN;
  let steady: number | null = null;
  return (t) => {
    const h = Math.floor(t / (60 * MIN)) * 60 * MIN;
    if (h !== hour) {
      hour = h;
      // When both ends of the hour agree, so does every quarter hour inside it.
      steady = at(h) === at(h + 60 * MIN) ? at(h) : null;
    }
    return steady ?? at(Math.floor(t / (15 * MIN)) * 15 * MIN);
  };
}

function hm(text: string): number {
  const [h, m] = text.split(':').map(Number);
  return h! * 60 + m!;
}

/** A restriction read once: weekdays as flags (Sunday first, as getUTCDay counts) and minutes. */
type ReadRestriction = { daily: true; days: boolean[]; from: number; to: number } | { daily: false; from: number; to: number };
function read(r: Restriction): ReadRestriction {
  if (r.type === 'daily') {
    const days = r.days ?? ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
    return { daily: true, days: DAY_NAMES.map((d) => days.includes(d as never)), from: hm(r.from), to: hm(r.to) };
  }
  const weekMinute = (d: string, time: string) => ((DAY_NAMES.indexOf(d) + 6) % 7) * 1440 + hm(time);
  return { daily: false, from: weekMinute(r.from.day, r.from.time), to: weekMinute(r.to.day, r.to.time) };
}

/** Is a wall-clock minute (weekday, minute of day) inside the restriction? */
function inside(r: ReadRestriction, day: number, minute: number): boolean {
  if (r.daily) {
    if (r.to > r.from) return r.days[day]! && minute >= r.from && minute < r.to;
    return (r.days[day]! && minute >= r.from) || (r.days[(day + 6) % 7]! && minute < r.to);
  }
  const p = ((day + 6) % 7) * 1440 + minute;
  return r.to > r.from ? p >= r.from && p < r.to : p >= r.from || p < r.to;
}

export interface RefMinute {
  person: string;
  key: string;
}

interface LayerState {
  layer: Layer;
  h0: number;
  length: number;
  from: number;
  until: number;
  restrictions: ReadRestriction[];
  k: number;
  /** Instant each shift began, as seen while walking. */
  starts: Map<number, number>;
}

/**
 * Who is on call at each minute of [from, to) (both minute-aligned): index i is minute from + i·60 s.
 * Also gives each layer's shift starts seen on the way (for building swaps).
 */
export function referenceTimeline(s: Schedule, from: number, to: number): { minutes: (RefMinute | null)[]; starts: Map<string, Map<number, number>> } {
  const unit = { hours: 60 * MIN, days: 1440 * MIN, weeks: 7 * 1440 * MIN };
  const states: LayerState[] = s.layers.map((layer) => {
    const [y, mo, d] = layer.start.split('-').map(Number);
    return {
      layer,
      h0: Date.UTC(y!, mo! - 1, d!) + hm(layer.handoff) * MIN,
      length: layer.shift.length * unit[layer.shift.unit],
      from: layer.from ? Date.parse(layer.from) : -Infinity,
      until: layer.until ? Date.parse(layer.until) : Infinity,
      restrictions: (layer.restrictions ?? []).map(read),
      k: -1,
      starts: new Map(),
    };
  });
  const overrides = (s.overrides ?? []).map((o) => ({ ...o, start: Date.parse(o.start), end: Date.parse(o.end) }));
  // Swaps name shifts by start instant: found on a first walk, applied on the second.
  const walk = (record: boolean, swapped: Map<string, string>) => {
    const minutes: (RefMinute | null)[] = [];
    let clock = -Infinity;
    const offset = offsetReader(s.timeZone);
    for (const st of states) st.k = -1;
    // Start two days early so the running maximum and the shift counters have settled by `from`.
    for (let t = from - 2 * 1440 * MIN; t < to; t += MIN) {
      clock = Math.max(clock, t + offset(t));
      const days = Math.floor(clock / (1440 * MIN));
      const day = (days + 4) % 7; // 1970-01-01 was a Thursday
      const minute = Math.floor((clock - days * 1440 * MIN) / MIN);
      for (const st of states) {
        const k = Math.floor((clock - st.h0) / st.length);
        if (k !== st.k) {
          if (record && k >= 0 && t > from - 2 * 1440 * MIN) st.starts.set(k, t);
          st.k = k;
        }
      }
      if (t < from) continue;
      const o = overrides.find((x) => x.start <= t && t < x.end);
      if (o) {
        minutes.push({ person: o.person, key: `override:${o.id}` });
        continue;
      }
      let found: RefMinute | null = null;
      for (let i = states.length - 1; i >= 0 && !found; i--) {
        const st = states[i]!;
        const l = st.layer;
        if (st.k < 0) continue;
        if (t < st.from || t >= st.until) continue;
        if (st.restrictions.length && !st.restrictions.some((r) => inside(r, day, minute))) continue;
        const person = swapped.get(`${l.id}#${st.k}`) ?? l.participants[st.k % l.participants.length]!;
        found = { person, key: `layer:${l.id}:${st.k}` };
      }
      minutes.push(found);
    }
    return minutes;
  };
  walk(true, new Map());
  const swapped = new Map<string, string>();
  for (const swap of s.swaps ?? []) {
    const side = (ref: { layer: string; start: string }) => {
      const st = states.find((x) => x.layer.id === ref.layer)!;
      const t = Date.parse(ref.start);
      const k = [...st.starts].find(([, at]) => at === t)?.[0];
      if (k === undefined) throw new Error(`reference: no shift of ${ref.layer} starts at ${ref.start}`);
      return { key: `${ref.layer}#${k}`, person: st.layer.participants[k % st.layer.participants.length]! };
    };
    const a = side(swap.first);
    const b = side(swap.second);
    swapped.set(a.key, b.person);
    swapped.set(b.key, a.person);
  }
  const minutes = walk(false, swapped);
  return { minutes, starts: new Map(states.map((st) => [st.layer.id, st.starts])) };
}
