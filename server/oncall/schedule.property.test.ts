/**
 * The final schedule against a naive minute-by-minute reference (testing/reference.ts): random
 * layers, restrictions, overrides and swaps in zones with daylight saving (one of them with a
 * 30-minute change, one without any), over a whole year and over the days around each change.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WEEKDAYS, sourceKey, type Layer, type Override, type Restriction, type Schedule, type Swap } from './model';
import { compileSchedule, type OnCallSchedule } from './schedule';
import { referenceTimeline, type RefMinute } from './testing/reference';

const MIN = 60_000;
const DAY = 1440 * MIN;
const ZONES = ['Europe/London', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/St_Johns'];
const PEOPLE = ['ana', 'ben', 'chloe', 'dev', 'eli'];
/** Each zone's 2025 clock changes, found by hand from the tz database's rules. */
const CHANGES: Record<string, string[]> = {
  'Europe/London': ['2025-03-30T01:00:00Z', '2025-10-26T01:00:00Z'],
  'America/New_York': ['2025-03-09T07:00:00Z', '2025-11-02T06:00:00Z'],
  'Australia/Sydney': ['2025-04-05T16:00:00Z', '2025-10-04T16:00:00Z'],
  'Asia/Kolkata': ['2025-06-01T00:00:00Z'],
  'Australia/Lord_Howe': ['2025-04-05T15:00:00Z', '2025-10-04T15:30:00Z'],
  'America/St_Johns': ['2025-03-09T05:30:00Z', '2025-11-02T04:30:00Z'],
};

const pad = (n: number) => String(n).padStart(2, '0');
const timeArb = fc.oneof(
  fc.constantFrom('00:00', '01:00', '01:30', '02:00', '02:15', '02:30', '03:00', '09:00', '18:00', '21:15'),
  fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${pad(h)}:${pad(m)}`),
);
const dayArb = fc.constantFrom(...WEEKDAYS);
const restrictionArb: fc.Arbitrary<Restriction> = fc.oneof(
  fc.record({ type: fc.constant('daily' as const), days: fc.option(fc.uniqueArray(dayArb, { minLength: 1, maxLength: 7 }), { nil: undefined }), from: timeArb, to: timeArb }).map((r) => (r.days ? r : { type: r.type, from: r.from, to: r.to })),
  fc.record({ type: fc.constant('weekly' as const), from: fc.record({ day: dayArb, time: timeArb }), to: fc.record({ day: dayArb, time: timeArb }) }),
);
const shiftArb = fc.oneof(
  fc.record({ length: fc.oneof(fc.constantFrom(1, 5, 7, 8, 12, 24), fc.integer({ min: 1, max: 36 })), unit: fc.constant('hours' as const) }),
  fc.record({ length: fc.integer({ min: 1, max: 3 }), unit: fc.constant('days' as const) }),
  fc.record({ length: fc.integer({ min: 1, max: 2 }), unit: fc.constant('weeks' as const) }),
);
const iso = (t: number) => new Date(t).toISOString();

/** A layer whose first shift is within `spanDays` before or after `around`. */
function layerArb(around: number, spanDays: number): fc.Arbitrary<Omit<Layer, 'id'>> {
  return fc
    .record({
      participants: fc.uniqueArray(fc.constantFrom(...PEOPLE), { minLength: 1, maxLength: 4 }),
      shift: shiftArb,
      startDay: fc.integer({ min: -spanDays, max: spanDays }),
      handoff: timeArb,
      from: fc.option(fc.integer({ min: -spanDays * 1440, max: spanDays * 1440 }), { nil: undefined }),
      length: fc.option(fc.integer({ min: 60, max: spanDays * 1440 }), { nil: undefined }),
      restrictions: fc.option(fc.array(restrictionArb, { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 2 }),
    })
    .map((r) => {
      const start = new Date(around + r.startDay * DAY).toISOString().slice(0, 10);
      const from = r.from === undefined ? undefined : around + r.from * MIN;
      return {
        participants: r.participants,
        shift: r.shift,
        start,
        handoff: r.handoff,
        ...(from !== undefined ? { from: iso(from) } : {}),
        ...(from !== undefined && r.length !== undefined ? { until: iso(from + r.length * MIN) } : {}),
        ...(r.restrictions ? { restrictions: r.restrictions } : {}),
      };
    });
}

/** Up to `max` overrides inside [from, to), minute-aligned, never overlapping. */
function overridesArb(from: number, to: number, max: number): fc.Arbitrary<Override[]> {
  const minutes = (to - from) / MIN;
  return fc.array(fc.tuple(fc.integer({ min: 0, max: minutes - 1 }), fc.integer({ min: 1, max: 3 * 1440 }), fc.constantFrom(...PEOPLE)), { maxLength: max }).map((raw) => {
    const out: Override[] = [];
    let end = -Infinity;
    for (const [at, length, person] of [...raw].sort((a, b) => a[0] - b[0])) {
      const s = from + at * MIN;
      if (s < end) continue;
      end = s + length * MIN;
      out.push({ id: `o${out.length}`, person, start: iso(s), end: iso(end) });
    }
    return out;
  });
}

/** Swaps between shifts the reference saw start, chosen by the seeds; pairs that cannot be swapped are skipped. */
function pickSwaps(s: Schedule, starts: Map<string, Map<number, number>>, seeds: [number, number, number, number][]): Swap[] {
  const swaps: Swap[] = [];
  const taken = new Set<string>();
  for (const [la, ka, lb, kb] of seeds) {
    const layerA = s.layers[la % s.layers.length]!;
    const layerB = s.layers[lb % s.layers.length]!;
    const sa = [...starts.get(layerA.id)!];
    const sb = [...starts.get(layerB.id)!];
    if (!sa.length || !sb.length) continue;
    const [kA, tA] = sa[ka % sa.length]!;
    const [kB, tB] = sb[kb % sb.length]!;
    const keyA = `${layerA.id}#${kA}`;
    const keyB = `${layerB.id}#${kB}`;
    if (keyA === keyB || taken.has(keyA) || taken.has(keyB)) continue;
    if (layerA.participants[kA % layerA.participants.length] === layerB.participants[kB % layerB.participants.length]) continue;
    taken.add(keyA).add(keyB);
    swaps.push({ id: `s${swaps.length}`, first: { layer: layerA.id, start: iso(tA) }, second: { layer: layerB.id, start: iso(tB) } });
  }
  return swaps;
}

function scheduleArb(from: number, to: number, around: number, spanDays: number, maxLayers: number) {
  return fc.record({
    timeZone: fc.constantFrom(...ZONES),
    layers: fc.array(layerArb(around, spanDays), { minLength: 1, maxLength: maxLayers }).map((ls) => ls.map((l, i) => ({ id: `L${i}`, ...l }))),
    overrides: overridesArb(from, to, 6),
    swapSeeds: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()), { maxLength: 3 }),
  });
}

const same = (a: RefMinute | null, b: { person: string; key: string } | null) => (a?.person ?? null) === (b?.person ?? null) && (a?.key ?? null) === (b?.key ?? null);

/** Checks who(), final(), gaps() and shiftOf() against the reference for every minute of [from, to). */
function agree(compiled: OnCallSchedule, minutes: (RefMinute | null)[], from: number, to: number, probe: { person: string; at: number }) {
  const label = (i: number) => `minute ${iso(from + i * MIN)}`;
  for (let i = 0; i < minutes.length; i++) {
    const who = compiled.who(from + i * MIN);
    const got = who ? { person: who.person, key: sourceKey(who.source) } : null;
    if (!same(minutes[i]!, got)) expect({ at: label(i), got }).toEqual({ at: label(i), got: minutes[i] });
  }
  const spans = compiled.final(from, to);
  const covered: ({ person: string; key: string } | null)[] = minutes.map(() => null);
  let prev: (typeof spans)[number] | null = null;
  for (const s of spans) {
    expect(s.start).toBeGreaterThanOrEqual(prev?.end ?? from);
    expect(s.end).toBeGreaterThan(s.start);
    expect(s.end).toBeLessThanOrEqual(to);
    if (prev && prev.end === s.start) expect(prev.person !== s.person || sourceKey(prev.source) !== sourceKey(s.source)).toBe(true);
    for (let t = s.start; t < s.end; t += MIN) covered[(t - from) / MIN] = { person: s.person, key: sourceKey(s.source) };
    prev = s;
  }
  for (let i = 0; i < minutes.length; i++) if (!same(minutes[i]!, covered[i]!)) expect({ at: label(i), span: covered[i] }).toEqual({ at: label(i), span: minutes[i] });
  const gaps: { start: number; end: number }[] = [];
  minutes.forEach((m, i) => {
    const t = from + i * MIN;
    if (m) return;
    const last = gaps[gaps.length - 1];
    if (last && last.end === t) last.end = t + MIN;
    else gaps.push({ start: t, end: t + MIN });
  });
  expect(compiled.gaps(from, to)).toEqual(gaps);
  // A person's current or next shift: an unbroken run of minutes on call.
  const i0 = Math.floor((probe.at - from) / MIN);
  const onAt = (i: number) => minutes[i]?.person === probe.person;
  let i = i0;
  while (i < minutes.length && !onAt(i)) i++;
  const shift = compiled.shiftOf(probe.person, from + i0 * MIN);
  if (i === minutes.length) return void (shift && expect(shift.start).toBeGreaterThanOrEqual(to));
  let j = i;
  while (j < minutes.length && onAt(j)) j++;
  let b = i;
  while (b > 0 && onAt(b - 1)) b--;
  expect(shift).not.toBeNull();
  expect(shift!.current).toBe(i === i0);
  if (b > 0) expect(iso(shift!.start)).toBe(iso(from + b * MIN));
  if (j < minutes.length) expect(iso(shift!.end)).toBe(iso(from + j * MIN));
}

function check(from: number, to: number, input: { timeZone: string; layers: Layer[]; overrides: Override[]; swapSeeds: [number, number, number, number][] }, probe: { person: string; at: number }) {
  const base: Schedule = { timeZone: input.timeZone, layers: input.layers, overrides: input.overrides };
  const { starts } = referenceTimeline(base, from, to);
  const schedule: Schedule = { ...base, swaps: pickSwaps(base, starts, input.swapSeeds) };
  const compiled = compileSchedule(schedule);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  const { minutes } = schedule.swaps!.length ? referenceTimeline(schedule, from, to) : referenceTimeline(base, from, to);
  agree(compiled.schedule, minutes, from, to, probe);
}

describe('final schedule against the minute-by-minute reference', () => {
  it('agrees over a year in every zone', { timeout: 240_000 }, () => {
    const from = Date.UTC(2025, 0, 1);
    const to = Date.UTC(2026, 0, 1);
    fc.assert(
      fc.property(scheduleArb(from, to, Date.UTC(2025, 0, 1), 60, 3), fc.constantFrom(...PEOPLE), fc.integer({ min: from, max: to - 1 }), (input, person, at) => check(from, to, input, { person, at })),
      { numRuns: Number(process.env.ONCALL_YEAR_RUNS) || 5 },
    );
  });

  it('agrees in the days around each clock change', { timeout: 240_000 }, () => {
    const changes = Object.entries(CHANGES).flatMap(([zone, times]) => times.map((t) => ({ zone, at: Date.parse(t) })));
    fc.assert(
      fc.property(
        fc.constantFrom(...changes).chain((c) => {
          const from = c.at - 4 * DAY;
          const to = c.at + 4 * DAY;
          return fc.tuple(fc.constant({ from, to }), scheduleArb(from, to, c.at, 6, 3).map((s) => ({ ...s, timeZone: c.zone })), fc.constantFrom(...PEOPLE), fc.integer({ min: from, max: to - 1 }));
        }),
        ([{ from, to }, input, person, at]) => check(from, to, input, { person, at }),
      ),
      { numRuns: Number(process.env.ONCALL_CHANGE_RUNS) || 120 },
    );
  });
});
