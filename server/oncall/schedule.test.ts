import { Temporal } from '@js-temporal/polyfill';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Layer, Schedule } from './model';
import { compileSchedule, type OnCallSchedule } from './schedule';
import { isTimeZone, zoneOf } from './zone';

const iso = (t: number) => new Date(t).toISOString();
const at = (s: string) => Date.parse(s);
const layer = (over: Partial<Layer> = {}): Layer => ({ id: 'primary', participants: ['ana', 'ben'], shift: { length: 1, unit: 'days' }, start: '2025-03-28', handoff: '09:00', ...over });

function compiled(s: Schedule): OnCallSchedule {
  const r = compileSchedule(s);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.schedule;
}
const errorsOf = (s: Schedule) => {
  const r = compileSchedule(s);
  return r.ok ? [] : r.errors;
};
const spans = (c: OnCallSchedule, from: string, to: string) => c.final(at(from), at(to)).map((s) => `${iso(s.start)} ${iso(s.end)} ${s.person}`);

describe('zone arithmetic against Temporal', () => {
  const zones = ['Europe/London', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Apia', 'Asia/Kathmandu'];
  it('gives the wall clock and first instants Temporal gives', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: Date.UTC(2018, 0, 1), max: Date.UTC(2030, 0, 1) }), (tz, t) => {
        const zone = zoneOf(tz);
        const zdt = Temporal.Instant.fromEpochMilliseconds(t).toZonedDateTimeISO(tz);
        expect(zone.offsetAt(t)).toBe(zdt.offsetNanoseconds / 1e6);
        // instantOf(wall) is Temporal's "earlier" instant for that wall time, or the jump when it was skipped.
        const wall = Math.floor(t / 60_000) * 60_000;
        const plain = Temporal.PlainDateTime.from(new Date(wall).toISOString().slice(0, 19));
        const earlier = plain.toZonedDateTime(tz, { disambiguation: 'earlier' });
        const exact = (() => {
          try {
            return plain.toZonedDateTime(tz, { disambiguation: 'reject' });
          } catch {
            return null;
          }
        })();
        const expected = exact || earlier.toPlainDateTime().equals(plain) ? earlier.epochMilliseconds : earlier.getTimeZoneTransition('next')!.epochMilliseconds;
        expect(iso(zone.instantOf(wall))).toBe(iso(expected));
      }),
      { numRuns: 800 },
    );
  });

  it('agrees with Temporal on every quarter hour of wall clock within a day of each clock change, 2024–2026', { timeout: 120_000 }, () => {
    for (const tz of zones)
      for (let t: Temporal.ZonedDateTime | null = Temporal.Instant.from('2024-01-01T00:00:00Z').toZonedDateTimeISO(tz); t && t.epochMilliseconds < Date.UTC(2027, 0, 1); t = t.getTimeZoneTransition('next')) {
        const zone = zoneOf(tz);
        const around = Math.floor(t.epochMilliseconds / 60_000) * 60_000 + zone.offsetAt(t.epochMilliseconds);
        for (let wall = around - 26 * 3_600_000; wall <= around + 26 * 3_600_000; wall += 15 * 60_000) {
          const plain = Temporal.PlainDateTime.from(new Date(wall).toISOString().slice(0, 19));
          const earlier = plain.toZonedDateTime(tz, { disambiguation: 'earlier' });
          const skipped = !earlier.toPlainDateTime().equals(plain);
          const expected = skipped ? earlier.getTimeZoneTransition('next')!.epochMilliseconds : earlier.epochMilliseconds;
          if (zone.instantOf(wall) !== expected) expect(`${tz} ${new Date(wall).toISOString().slice(0, 16)} → ${iso(zone.instantOf(wall))}`).toBe(`${tz} ${new Date(wall).toISOString().slice(0, 16)} → ${iso(expected)}`);
        }
      }
  });

  it('knows IANA names and refuses the rest', () => {
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('+02:00')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});

describe('daylight saving', () => {
  it('a daily 09:00 handoff stays 09:00 local, so the day of a change is 23 or 25 hours', () => {
    const c = compiled({ timeZone: 'Europe/London', layers: [layer()] });
    expect(spans(c, '2025-03-29T09:00:00Z', '2025-04-01T08:00:00Z')).toEqual([
      '2025-03-29T09:00:00.000Z 2025-03-30T08:00:00.000Z ben', // 23 hours: the clocks went forward
      '2025-03-30T08:00:00.000Z 2025-03-31T08:00:00.000Z ana',
      '2025-03-31T08:00:00.000Z 2025-04-01T08:00:00.000Z ben',
    ]);
    expect(spans(c, '2025-10-25T08:00:00Z', '2025-10-27T09:00:00Z')).toEqual([
      '2025-10-25T08:00:00.000Z 2025-10-26T09:00:00.000Z ben', // 25 hours: the clocks went back
      '2025-10-26T09:00:00.000Z 2025-10-27T09:00:00.000Z ana',
    ]);
  });

  it('12-hour shifts are wall-clock hours: handoffs at 09:00 and 21:00 local, the night of a change 11 or 13 hours', () => {
    const c = compiled({ timeZone: 'America/New_York', layers: [layer({ shift: { length: 12, unit: 'hours' }, start: '2025-11-01' })] });
    expect(spans(c, '2025-11-02T01:00:00Z', '2025-11-03T02:00:00Z')).toEqual([
      '2025-11-02T01:00:00.000Z 2025-11-02T14:00:00.000Z ben', // 21:00 EDT to 09:00 EST: 13 hours
      '2025-11-02T14:00:00.000Z 2025-11-03T02:00:00.000Z ana',
    ]);
  });

  it('a handoff in the skipped hour happens at the jump; one in the repeated hour at its first occurrence', () => {
    const c = compiled({ timeZone: 'Europe/London', layers: [layer({ handoff: '01:30' })] });
    expect(c.layerShifts('primary', at('2025-03-29T12:00:00Z'), at('2025-03-31T12:00:00Z')).map((s) => iso(s.start))).toEqual(['2025-03-29T01:30:00.000Z', '2025-03-30T01:00:00.000Z', '2025-03-31T00:30:00.000Z']);
    expect(c.layerShifts('primary', at('2025-10-25T12:00:00Z'), at('2025-10-26T12:00:00Z')).map((s) => iso(s.start))).toEqual(['2025-10-25T00:30:00.000Z', '2025-10-26T00:30:00.000Z']);
    // The repeated 01:00–02:00 decides nothing twice: whoever took over at the first 01:30 stays.
    expect(c.who(at('2025-10-26T01:15:00Z'))?.person).toBe(c.who(at('2025-10-26T00:45:00Z'))?.person);
  });

  it('Lord Howe moves its clocks by 30 minutes', () => {
    const c = compiled({ timeZone: 'Australia/Lord_Howe', layers: [layer({ shift: { length: 1, unit: 'hours' }, start: '2025-10-04', handoff: '00:00' })] });
    // 02:00 LHST (+10:30) becomes 02:30 LHDT (+11): the 02:00 shift lasts 30 minutes.
    const around = c.layerShifts('primary', at('2025-10-04T14:30:00Z'), at('2025-10-04T16:30:00Z')).map((s) => `${iso(s.start)} ${iso(s.end)}`);
    expect(around).toEqual(['2025-10-04T14:30:00.000Z 2025-10-04T15:30:00.000Z', '2025-10-04T15:30:00.000Z 2025-10-04T16:00:00.000Z', '2025-10-04T16:00:00.000Z 2025-10-04T17:00:00.000Z']);
  });
});

describe('layers, restrictions, overrides and swaps', () => {
  const team: Schedule = {
    timeZone: 'Europe/Berlin',
    layers: [
      layer({ id: 'nights', participants: ['ana', 'ben'], shift: { length: 1, unit: 'weeks' }, start: '2025-06-02', handoff: '10:00' }),
      layer({ id: 'office', participants: ['chloe', 'dev'], shift: { length: 1, unit: 'days' }, start: '2025-06-02', handoff: '00:00', restrictions: [{ type: 'daily', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00' }] }),
    ],
    overrides: [{ id: 'cover', person: 'eli', start: '2025-06-04T12:00:00+02:00', end: '2025-06-04T14:00:00+02:00' }],
  };

  it('a later layer wins where it has someone; the earlier one shows through elsewhere; an override wins over all', () => {
    const c = compiled(team);
    expect(spans(c, '2025-06-04T00:00:00+02:00', '2025-06-05T00:00:00+02:00')).toEqual([
      '2025-06-03T22:00:00.000Z 2025-06-04T07:00:00.000Z ana',
      '2025-06-04T07:00:00.000Z 2025-06-04T10:00:00.000Z chloe',
      '2025-06-04T10:00:00.000Z 2025-06-04T12:00:00.000Z eli',
      '2025-06-04T12:00:00.000Z 2025-06-04T16:00:00.000Z chloe',
      '2025-06-04T16:00:00.000Z 2025-06-04T22:00:00.000Z ana',
    ]);
    expect(c.who(at('2025-06-04T11:00:00+02:00'))?.person).toBe('chloe');
    expect(c.who(at('2025-06-04T13:00:00+02:00'))).toEqual({ person: 'eli', source: { type: 'override', override: 'cover' } });
    expect(c.who(at('2025-06-07T11:00:00+02:00'))).toEqual({ person: 'ana', source: { type: 'layer', layer: 'nights', shift: 0 } });
  });

  it('gaps are where nobody is on call, and a person’s next or current shift is their unbroken run', () => {
    const c = compiled({ ...team, layers: [team.layers[1]!] });
    expect(c.gaps(at('2025-06-04T00:00:00+02:00'), at('2025-06-05T00:00:00+02:00')).map((g) => `${iso(g.start)} ${iso(g.end)}`)).toEqual([
      '2025-06-03T22:00:00.000Z 2025-06-04T07:00:00.000Z',
      '2025-06-04T16:00:00.000Z 2025-06-04T22:00:00.000Z',
    ]);
    expect(c.shiftOf('dev', at('2025-06-04T08:00:00+02:00'))).toEqual({ start: at('2025-06-05T09:00:00+02:00'), end: at('2025-06-05T18:00:00+02:00'), current: false });
    expect(c.shiftOf('chloe', at('2025-06-04T15:00:00+02:00'))).toEqual({ start: at('2025-06-04T14:00:00+02:00'), end: at('2025-06-04T18:00:00+02:00'), current: true });
    expect(c.shiftOf('nobody', at('2025-06-04T15:00:00+02:00'))).toBeNull();
  });

  it('a swap exchanges the people of two shifts; an override still wins over a swapped shift', () => {
    const swap = { id: 'trade', first: { layer: 'office', start: '2025-06-04T00:00:00+02:00' }, second: { layer: 'office', start: '2025-06-05T00:00:00+02:00' } };
    const c = compiled({ ...team, swaps: [swap] });
    expect(c.who(at('2025-06-04T10:00:00+02:00'))).toEqual({ person: 'dev', source: { type: 'layer', layer: 'office', shift: 2, swap: 'trade' } });
    expect(c.who(at('2025-06-05T10:00:00+02:00'))?.person).toBe('chloe');
    expect(c.who(at('2025-06-04T13:00:00+02:00'))?.person).toBe('eli');
    expect(c.layerShifts('office', at('2025-06-04T00:00:00+02:00'), at('2025-06-06T00:00:00+02:00')).map((s) => `${s.index} ${s.person} ${s.swap ?? ''}`)).toEqual(['2 dev trade', '3 chloe trade']);
  });
});

describe('validation names the field', () => {
  it('an unknown time zone', () => {
    expect(errorsOf({ timeZone: 'Europe/Atlantis', layers: [layer()] })).toEqual([{ field: 'timeZone', message: 'timeZone: "Europe/Atlantis" is not an IANA time zone (e.g. UTC, Europe/London, America/New_York)' }]);
  });

  it('a layer with nobody in it, a zero or negative shift length, a bad date and handoff', () => {
    expect(errorsOf({ timeZone: 'UTC', layers: [layer({ participants: [] })] })).toEqual([{ field: 'layers.0.participants', message: 'layers.0.participants: a layer needs at least one person in its rotation' }]);
    expect(errorsOf({ timeZone: 'UTC', layers: [layer(), layer({ id: 'b', shift: { length: 0, unit: 'hours' } })] })).toEqual([{ field: 'layers.1.shift.length', message: 'layers.1.shift.length: the shift length must be a whole number of at least 1, not 0' }]);
    expect(errorsOf({ timeZone: 'UTC', layers: [layer({ shift: { length: -2, unit: 'days' } })] }).map((e) => e.field)).toEqual(['layers.0.shift.length']);
    expect(errorsOf({ timeZone: 'UTC', layers: [layer({ shift: { length: 1.5, unit: 'days' } })] }).map((e) => e.field)).toEqual(['layers.0.shift.length']);
    expect(errorsOf({ timeZone: 'UTC', layers: [layer({ start: '2025-02-30', handoff: '24:00' })] })).toEqual([
      { field: 'layers.0.start', message: 'layers.0.start: give the first shift\'s date as YYYY-MM-DD, not "2025-02-30"' },
      { field: 'layers.0.handoff', message: 'layers.0.handoff: give the handoff time as HH:MM (00:00–23:59), not "24:00"' },
    ]);
    expect(errorsOf({ timeZone: 'UTC', layers: [] })).toEqual([{ field: 'layers', message: 'layers: a schedule needs at least one layer' }]);
    expect(errorsOf({ timeZone: 'UTC', layers: [layer(), layer()] }).map((e) => e.field)).toEqual(['layers.1.id']);
    expect(errorsOf({ timeZone: 'UTC', layers: [layer({ restrictions: [{ type: 'daily', days: ['mon', 'someday' as never], from: '9:00', to: '18:00' }] })] }).map((e) => e.field)).toEqual(['layers.0.restrictions.0.days.1', 'layers.0.restrictions.0.from']);
  });

  it('reversed and overlapping override ranges', () => {
    const o = (id: string, start: string, end: string) => ({ id, person: 'eli', start, end });
    expect(errorsOf({ timeZone: 'UTC', layers: [layer()], overrides: [o('a', '2025-06-04T14:00:00Z', '2025-06-04T12:00:00Z')] })).toEqual([
      { field: 'overrides.0.end', message: 'overrides.0.end: the override ends (2025-06-04T12:00:00Z) before or when it starts (2025-06-04T14:00:00Z)' },
    ]);
    expect(errorsOf({ timeZone: 'UTC', layers: [layer()], overrides: [o('a', '2025-06-04T10:00:00Z', '2025-06-04T18:00:00Z'), o('b', '2025-06-04T17:00:00Z', '2025-06-04T19:00:00Z')] })).toEqual([
      { field: 'overrides.1', message: 'overrides.1: overlaps override 0 ("a", 2025-06-04T10:00:00.000Z to 2025-06-04T18:00:00.000Z)' },
    ]);
    // Touching ranges do not overlap.
    expect(errorsOf({ timeZone: 'UTC', layers: [layer()], overrides: [o('a', '2025-06-04T10:00:00Z', '2025-06-04T18:00:00Z'), o('b', '2025-06-04T18:00:00Z', '2025-06-04T19:00:00Z')] })).toEqual([]);
    expect(errorsOf({ timeZone: 'UTC', layers: [layer()], overrides: [o('a', 'tomorrow', '2025-06-04T18:00:00Z')] }).map((e) => e.field)).toEqual(['overrides.0.start']);
  });

  it('swaps that name no shift, the same shift twice or one person', () => {
    const s = (first: string, second: string, layerId = 'primary') => errorsOf({ timeZone: 'UTC', layers: [layer()], swaps: [{ id: 'x', first: { layer: layerId, start: first }, second: { layer: 'primary', start: second } }] }).map((e) => e.message);
    expect(s('2025-03-29T09:30:00Z', '2025-03-30T09:00:00Z')).toEqual(['swaps.0.first.start: no shift of layer "primary" starts at 2025-03-29T09:30:00Z']);
    expect(s('2025-03-29T09:00:00Z', '2025-03-29T09:00:00Z')).toEqual(['swaps.0.second: a shift cannot be swapped with itself']);
    expect(s('2025-03-29T09:00:00Z', '2025-03-31T09:00:00Z')).toEqual(["swaps.0.second: both shifts are ben's"]);
    expect(s('2025-03-29T09:00:00Z', '2025-03-30T09:00:00Z', 'nope')).toEqual(['swaps.0.first.layer: no layer has the id "nope"']);
  });
});
