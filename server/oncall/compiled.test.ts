/**
 * The kept "who is on call" answers (compiled.ts) say what the schedule core says: the same
 * person and source as `who`, until the end of `shiftOf`, whether an answer is computed afresh or
 * reused from the last question (instants asked in time order, as a console asks about now, and
 * in any order).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answering } from './compiled';
import { WEEKDAYS, sourceKey, type Layer, type Override, type Restriction } from './model';
import { compileSchedule, type OnCallSchedule } from './schedule';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FROM = Date.UTC(2026, 0, 1);
const ZONES = ['UTC', 'Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata'];
const PEOPLE = ['ana', 'ben', 'chloe', 'dev'];
const iso = (t: number) => new Date(t).toISOString();

const time = fc.constantFrom('00:00', '01:30', '02:30', '09:00', '18:00', '22:00');
const restriction: fc.Arbitrary<Restriction> = fc.oneof(
  fc.record({ type: fc.constant('daily' as const), days: fc.uniqueArray(fc.constantFrom(...WEEKDAYS), { minLength: 1, maxLength: 7 }), from: time, to: time }),
  fc.record({ type: fc.constant('weekly' as const), from: fc.record({ day: fc.constantFrom(...WEEKDAYS), time }), to: fc.record({ day: fc.constantFrom(...WEEKDAYS), time }) }),
);
const layer: fc.Arbitrary<Omit<Layer, 'id'>> = fc.record(
  {
    participants: fc.uniqueArray(fc.constantFrom(...PEOPLE), { minLength: 1, maxLength: 3 }),
    shift: fc.oneof(fc.record({ length: fc.constantFrom(8, 12, 30), unit: fc.constant('hours' as const) }), fc.record({ length: fc.constantFrom(1, 2), unit: fc.constantFrom('days' as const, 'weeks' as const) })),
    start: fc.constantFrom('2025-12-01', '2026-01-05', '2026-03-20'),
    handoff: time,
    restrictions: fc.array(restriction, { minLength: 1, maxLength: 2 }),
  },
  { requiredKeys: ['participants', 'shift', 'start', 'handoff'] },
);
const overrides: fc.Arbitrary<Override[]> = fc.array(fc.tuple(fc.integer({ min: 0, max: 120 * 24 }), fc.integer({ min: 1, max: 72 }), fc.constantFrom(...PEOPLE)), { maxLength: 12 }).map((raw) => {
  const out: Override[] = [];
  let end = -Infinity;
  for (const [h, length, person] of [...raw].sort((a, b) => a[0] - b[0])) {
    const start = FROM + h * HOUR;
    if (start < end) continue;
    end = start + length * HOUR;
    out.push({ id: `o${out.length}`, person, start: iso(start), end: iso(end) });
  }
  return out;
});
const schedule = fc.record({ timeZone: fc.constantFrom(...ZONES), layers: fc.array(layer, { minLength: 1, maxLength: 4 }).map((ls) => ls.map((l, i) => ({ id: `L${i}`, ...l }))), overrides });

function expected(c: OnCallSchedule, at: number) {
  const on = c.who(at);
  return on ? { person: on.person, source: sourceKey(on.source), until: c.shiftOf(on.person, at)!.end } : null;
}

describe('kept who-is-on-call answers', () => {
  it('agree with who and shiftOf, asked in time order and in any order', () => {
    fc.assert(
      fc.property(schedule, fc.array(fc.integer({ min: 0, max: 120 * 24 * 60 }), { minLength: 1, maxLength: 20 }), fc.boolean(), (def, minutes, ordered) => {
        const r = compileSchedule(def);
        if (!r.ok) throw new Error(JSON.stringify(r.errors));
        const who = answering(r.schedule);
        // Close instants too, so a kept answer is reused and its range's end is crossed.
        const instants = minutes.flatMap((m) => [FROM + m * 60_000, FROM + m * 60_000 + 59 * 60_000]);
        if (ordered) instants.sort((a, b) => a - b);
        for (const at of instants) {
          const got = who(at);
          expect({ at: iso(at), got: got ? { person: got.person, source: sourceKey(got.source), until: got.until } : null }).toEqual({ at: iso(at), got: expected(r.schedule, at) });
        }
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it('answers a run longer than its longest window as the core does', () => {
    const r = compileSchedule({ timeZone: 'Europe/London', layers: [{ id: 'L0', participants: ['ana'], shift: { length: 1, unit: 'weeks' }, start: '2026-01-05', handoff: '09:00' }] });
    if (!r.ok) throw new Error('compile');
    const at = Date.UTC(2026, 5, 1);
    const got = answering(r.schedule)(at)!;
    expect(got.person).toBe('ana');
    expect(got.until).toBe(r.schedule.shiftOf('ana', at)!.end);
  });
});
