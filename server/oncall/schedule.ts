/**
 * The final schedule: who is on call, computed from layers, restrictions, swaps and overrides
 * (docs/oncall.md). Pure: a compiled schedule answers questions about instants (epoch ms).
 *
 * Every rule is decided on the schedule clock (zone.ts): shift k of a layer is on call while
 * h0 + k·length ≤ scheduleWall(t) < h0 + (k+1)·length, and a restriction while the clock's time
 * of week is inside it. Spans turn those wall-clock boundaries into instants with instantOf,
 * so a span list and point questions always agree.
 */
import { WEEKDAYS, parseDate, parseInstant, parseTimeOfDay, sourceKey, type FieldError, type Layer, type Range, type Restriction, type Schedule, type Source, type Span } from './model';
import { shapeErrors } from './validate';
import { DAY, MINUTE, MONDAY, WEEK, mod, zoneOf, type Wall, type Zone } from './zone';

const UNIT_MS = { hours: 3_600_000, days: DAY, weeks: WEEK } as const;

interface CompiledLayer {
  id: string;
  participants: string[];
  /** Wall time of shift 0's start and the shift length (wall ms). */
  h0: Wall;
  length: number;
  from: number;
  until: number;
  /** Time-of-week windows [start, end) in ms after Monday 00:00, disjoint and sorted; null: always. */
  windows: [number, number][] | null;
  swapped: Map<number, { person: string; swap: string }>;
}

export interface OnCall {
  person: string;
  source: Source;
}

export interface PersonShift extends Range {
  /** True when the person is on call at the instant asked about. */
  current: boolean;
}

export interface LayerShift extends Range {
  index: number;
  person: string;
  swap?: string;
}

export type CompileResult = { ok: true; schedule: OnCallSchedule } | { ok: false; errors: FieldError[] };

function windowsOf(restrictions: Restriction[] | undefined): [number, number][] | null {
  if (!restrictions?.length) return null;
  const raw: [number, number][] = [];
  const push = (start: number, end: number) => {
    if (end <= start) end += WEEK;
    if (end > WEEK) raw.push([start, WEEK], [0, end - WEEK]);
    else raw.push([start, end]);
  };
  for (const r of restrictions) {
    if (r.type === 'daily') {
      const from = parseTimeOfDay(r.from)! * MINUTE;
      const to = parseTimeOfDay(r.to)! * MINUTE;
      for (const day of r.days ?? WEEKDAYS) {
        const base = WEEKDAYS.indexOf(day) * DAY;
        push(base + from, base + (to > from ? to : to + DAY));
      }
    } else {
      push(WEEKDAYS.indexOf(r.from.day) * DAY + parseTimeOfDay(r.from.time)! * MINUTE, WEEKDAYS.indexOf(r.to.day) * DAY + parseTimeOfDay(r.to.time)! * MINUTE);
    }
  }
  raw.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of raw) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  return merged.length === 1 && merged[0]![0] === 0 && merged[0]![1] === WEEK ? null : merged;
}

/** Validates a schedule and prepares it for questions; errors name the field. */
export function compileSchedule(schedule: Schedule): CompileResult {
  const errors = shapeErrors(schedule);
  if (errors.length) return { ok: false, errors };
  const zone = zoneOf(schedule.timeZone);
  const layers = schedule.layers.map((l: Layer): CompiledLayer => {
    const h0 = parseDate(l.start)! + parseTimeOfDay(l.handoff)! * MINUTE;
    const from = l.from === undefined ? -Infinity : parseInstant(l.from)!;
    return {
      id: l.id,
      participants: [...l.participants],
      h0,
      length: l.shift.length * UNIT_MS[l.shift.unit],
      from,
      until: l.until === undefined ? Infinity : parseInstant(l.until)!,
      windows: windowsOf(l.restrictions),
      swapped: new Map(),
    };
  });
  const byId = new Map(layers.map((l) => [l.id, l]));
  const swapErrors: FieldError[] = [];
  const taken = new Map<string, number>();
  (schedule.swaps ?? []).forEach((swap, i) => {
    const at = `swaps.${i}`;
    const add = (field: string, message: string) => swapErrors.push({ field, message: `${field}: ${message}` });
    if (typeof swap.id !== 'string' || !swap.id.trim()) add(`${at}.id`, 'a swap needs an id');
    const ends = (['first', 'second'] as const).map((which) => {
      const ref = swap[which];
      const field = `${at}.${which}`;
      const layer = ref && byId.get(ref.layer);
      if (!layer) return void add(`${field}.layer`, `no layer has the id "${String(ref?.layer)}"`);
      const start = parseInstant(ref.start);
      if (start === null) return void add(`${field}.start`, `"${String(ref.start)}" is not an instant (e.g. 2026-12-07T09:00:00Z)`);
      const k = shiftStartingAt(zone, layer, start);
      if (k === null) return void add(`${field}.start`, `no shift of layer "${layer.id}" starts at ${ref.start}`);
      const key = `${layer.id}#${k}`;
      if (taken.has(key)) return void add(`${field}.start`, `that shift is already swapped by swap ${taken.get(key)}`);
      return { layer, k, key, field };
    });
    const [a, b] = ends;
    if (!a || !b) return;
    if (a.key === b.key) return void add(`${at}.second`, 'a shift cannot be swapped with itself');
    const pa = personOf(a.layer, a.k);
    const pb = personOf(b.layer, b.k);
    if (pa === pb) return void add(`${at}.second`, `both shifts are ${pa}'s`);
    taken.set(a.key, i);
    taken.set(b.key, i);
    a.layer.swapped.set(a.k, { person: pb, swap: swap.id });
    b.layer.swapped.set(b.k, { person: pa, swap: swap.id });
  });
  if (swapErrors.length) return { ok: false, errors: swapErrors };
  const overrides = (schedule.overrides ?? [])
    .map((o) => ({ id: o.id, person: o.person, start: parseInstant(o.start)!, end: parseInstant(o.end)! }))
    .sort((a, b) => a.start - b.start);
  return { ok: true, schedule: new OnCallSchedule(zone, layers, overrides) };
}

/** The person of shift k before swaps. */
const personOf = (l: CompiledLayer, k: number) => l.participants[mod(k, l.participants.length)]!;

/** The index of the layer's shift that starts at instant t, or null. */
function shiftStartingAt(zone: Zone, l: CompiledLayer, t: number): number | null {
  const k = Math.floor((zone.scheduleWall(t) - l.h0) / l.length);
  if (k < 0) return null;
  const start = zone.instantOf(l.h0 + k * l.length);
  const end = zone.instantOf(l.h0 + (k + 1) * l.length);
  return start === t && end > start ? k : null;
}

export class OnCallSchedule {
  constructor(
    readonly zone: Zone,
    private readonly layers: CompiledLayer[],
    /** Sorted by start, never overlapping (validated). */
    private readonly overrides: { id: string; person: string; start: number; end: number }[],
  ) {}

  private overrideAt(t: number) {
    let l = 0;
    let r = this.overrides.length - 1;
    let found = -1;
    while (l <= r) {
      const m = (l + r) >> 1;
      if (this.overrides[m]!.start <= t) {
        found = m;
        l = m + 1;
      } else r = m - 1;
    }
    const o = found >= 0 ? this.overrides[found]! : null;
    return o && o.end > t ? o : null;
  }

  private layerOnCall(l: CompiledLayer, t: number, wall: Wall): OnCall | null {
    if (t < l.from || t >= l.until) return null;
    const k = Math.floor((wall - l.h0) / l.length);
    if (k < 0) return null;
    if (l.windows) {
      const at = mod(wall - MONDAY, WEEK);
      if (!l.windows.some(([s, e]) => at >= s && at < e)) return null;
    }
    const swapped = l.swapped.get(k);
    return swapped ? { person: swapped.person, source: { type: 'layer', layer: l.id, shift: k, swap: swapped.swap } } : { person: personOf(l, k), source: { type: 'layer', layer: l.id, shift: k } };
  }

  /** Who is on call at instant t, and why; null when nobody is. */
  who(t: number): OnCall | null {
    const o = this.overrideAt(t);
    if (o) return { person: o.person, source: { type: 'override', override: o.id } };
    const wall = this.zone.scheduleWall(t);
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const on = this.layerOnCall(this.layers[i]!, t, wall);
      if (on) return on;
    }
    return null;
  }

  /** A layer's rotation shifts that overlap [from, to), restrictions aside: when each starts and ends and whose it is. */
  layerShifts(layerId: string, from: number, to: number): LayerShift[] {
    const l = this.layers.find((x) => x.id === layerId);
    if (!l || to <= from) return [];
    const out: LayerShift[] = [];
    const first = Math.max(0, Math.floor((this.zone.scheduleWall(from) - l.h0) / l.length));
    const last = Math.floor((this.zone.scheduleWall(to - 1) - l.h0) / l.length);
    for (let k = first; k <= last; k++) {
      const start = this.zone.instantOf(l.h0 + k * l.length);
      const end = this.zone.instantOf(l.h0 + (k + 1) * l.length);
      if (end <= start || end <= from || start >= to) continue;
      const swapped = l.swapped.get(k);
      out.push({ index: k, start, end, person: swapped?.person ?? personOf(l, k), ...(swapped ? { swap: swapped.swap } : {}) });
    }
    return out;
  }

  /** Where a layer has someone on call within [from, to), clipped to it. */
  private layerSpans(l: CompiledLayer, from: number, to: number): Span[] {
    const lo = Math.max(from, l.from);
    const hi = Math.min(to, l.until);
    if (hi <= lo) return [];
    const spans: Span[] = [];
    const emit = (a: Wall, b: Wall, k: number) => {
      const start = Math.max(lo, this.zone.instantOf(a));
      const end = Math.min(hi, this.zone.instantOf(b));
      if (end <= start) return;
      const swapped = l.swapped.get(k);
      spans.push({ start, end, person: swapped?.person ?? personOf(l, k), source: swapped ? { type: 'layer', layer: l.id, shift: k, swap: swapped.swap } : { type: 'layer', layer: l.id, shift: k } });
    };
    const wallLo = this.zone.scheduleWall(lo);
    const wallHi = this.zone.scheduleWall(hi - 1) + 1;
    const first = Math.max(0, Math.floor((wallLo - l.h0) / l.length));
    const last = Math.floor((wallHi - 1 - l.h0) / l.length);
    for (let k = first; k <= last; k++) {
      const a = Math.max(l.h0 + k * l.length, wallLo);
      const b = Math.min(l.h0 + (k + 1) * l.length, wallHi);
      if (!l.windows) {
        emit(a, b, k);
        continue;
      }
      for (let week = a - mod(a - MONDAY, WEEK); week < b; week += WEEK)
        for (const [s, e] of l.windows) {
          const ws = Math.max(a, week + s);
          const we = Math.min(b, week + e);
          if (we > ws) emit(ws, we, k);
        }
    }
    return spans;
  }

  /** The final schedule over [from, to): who is on call when and what put them there, in order. */
  final(from: number, to: number): Span[] {
    if (to <= from) return [];
    const perLayer = this.layers.map((l) => this.layerSpans(l, from, to));
    const overrides = this.overrides.filter((o) => o.end > from && o.start < to);
    const cuts = new Set<number>([from, to]);
    for (const spans of perLayer) for (const s of spans) cuts.add(s.start).add(s.end);
    for (const o of overrides) cuts.add(Math.max(from, o.start)).add(Math.min(to, o.end));
    const points = [...cuts].sort((a, b) => a - b);
    const at = perLayer.map(() => 0);
    let oi = 0;
    const out: Span[] = [];
    for (let p = 0; p + 1 < points.length; p++) {
      const a = points[p]!;
      const b = points[p + 1]!;
      while (oi < overrides.length && overrides[oi]!.end <= a) oi++;
      let piece: Span | null = null;
      const o = overrides[oi];
      if (o && o.start <= a) piece = { start: a, end: b, person: o.person, source: { type: 'override', override: o.id } };
      for (let i = perLayer.length - 1; i >= 0; i--) {
        const spans = perLayer[i]!;
        while (at[i]! < spans.length && spans[at[i]!]!.end <= a) at[i]! += 1;
        const s = spans[at[i]!];
        if (!piece && s && s.start <= a) piece = { start: a, end: b, person: s.person, source: s.source };
      }
      if (!piece) continue;
      const last = out[out.length - 1];
      if (last && last.end === a && last.person === piece.person && sourceKey(last.source) === sourceKey(piece.source)) last.end = b;
      else out.push(piece);
    }
    return out;
  }

  /** Where nobody is on call within [from, to). */
  gaps(from: number, to: number): Range[] {
    const gaps: Range[] = [];
    let at = from;
    for (const s of this.final(from, to)) {
      if (s.start > at) gaps.push({ start: at, end: s.start });
      at = s.end;
    }
    if (at < to) gaps.push({ start: at, end: to });
    return gaps;
  }

  /**
   * A person's current shift (when on call at `at`) or next one within `horizon` ms: from when
   * to when they are on call without a break, whichever layers or overrides put them there.
   */
  shiftOf(person: string, at: number, horizon = 366 * DAY): PersonShift | null {
    const current = this.who(at)?.person === person;
    let start = at;
    if (!current) {
      const next = this.final(at, at + horizon).find((s) => s.person === person);
      if (!next) return null;
      start = next.start;
    } else {
      // Walk back, a widening window at a time, to where the unbroken run began.
      for (let back = 7 * DAY; ; back *= 2) {
        const spans = this.final(at - back, at + 1);
        let i = spans.length - 1;
        while (i > 0 && spans[i - 1]!.person === person && spans[i - 1]!.end === spans[i]!.start) i--;
        start = spans[i]!.start;
        if (start > at - back || back > 20 * 366 * DAY) break;
      }
    }
    let end = start;
    for (let ahead = 7 * DAY; ; ahead *= 2) {
      const spans = this.final(start, start + ahead);
      end = start;
      for (const s of spans) {
        if (s.start !== end || s.person !== person) break;
        end = s.end;
      }
      if (end < start + ahead || ahead > 20 * 366 * DAY) break;
    }
    return { start, end, current };
  }
}
