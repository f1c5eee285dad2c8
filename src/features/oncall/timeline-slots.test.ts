import { describe, expect, it } from 'vitest';
import type { FinalSchedule } from '../../../server/contract/oncall';
import { moveFrom, rangeText, rowsOf, slotsOf, whoInSlot } from './timeline-slots';

const HOUR = 3_600_000;
const person = (username: string) => ({ _id: `id-${username}`, username, email: `${username}@example.com` });
const layer = (layerName: string) => ({ type: 'layer' as const, layer: layerName, layerName, shift: 0, shiftStart: '', shiftEnd: '' });

/** Two days from local midnight: ana until 09:30 on the first day, a gap to 10:00, ben (an override) to the end. */
function twoDays(): { final: FinalSchedule; from: number } {
  const from = new Date(2026, 2, 2, 0, 0, 0).getTime();
  const at = (h: number) => new Date(from + h * HOUR).toISOString();
  return {
    from,
    final: {
      from: at(0),
      to: at(48),
      spans: [
        { start: at(0), end: at(9.5), person: person('ana'), source: layer('primary') },
        { start: at(10), end: at(48), person: person('ben'), source: { type: 'override' as const, override: 'o1' } },
      ],
      gaps: [{ start: at(9.5), end: at(10) }],
    },
  };
}

describe('the timeline of hours', () => {
  it('cuts the final schedule into hours, each saying who is on call and every change inside it', () => {
    const { final, from } = twoDays();
    const slots = slotsOf(final);
    expect(slots).toHaveLength(48);
    expect(slots[0]).toMatchObject({ index: 0, start: from, end: from + HOUR });
    expect(whoInSlot(slots[0]!)).toBe('ana (primary)');
    const nine = slots[9]!;
    expect(nine.parts.map((p) => [p.person, p.end - p.start])).toEqual([['ana', HOUR / 2], [null, HOUR / 2]]);
    expect(whoInSlot(nine)).toMatch(/^ana \(primary\) until .+, then nobody$/);
    expect(whoInSlot(slots[10]!)).toBe('ben (override)');
    expect(slots[47]!.end).toBe(Date.parse(final.to));
  });

  it('groups hours by calendar day and moves along time: an hour, a day at the same hour, a day’s ends, the range’s ends', () => {
    const { final } = twoDays();
    const slots = slotsOf(final);
    const rows = rowsOf(slots);
    expect(rows.map((r) => r.slots.length)).toEqual([24, 24]);
    const move = (at: number, key: string, ctrl = false) => moveFrom(rows, slots, at, key, ctrl);
    expect(move(5, 'ArrowRight')).toBe(6);
    expect(move(23, 'ArrowRight')).toBe(24);
    expect(move(0, 'ArrowLeft')).toBe(0);
    expect(move(47, 'ArrowRight')).toBe(47);
    expect(move(5, 'ArrowDown')).toBe(29);
    expect(move(29, 'ArrowUp')).toBe(5);
    expect(move(29, 'ArrowDown')).toBe(29);
    expect(move(30, 'Home')).toBe(24);
    expect(move(30, 'End')).toBe(47);
    expect(move(30, 'Home', true)).toBe(0);
    expect(move(3, 'End', true)).toBe(47);
    expect(move(3, 'PageDown')).toBe(27);
    expect(move(3, 'a')).toBeNull();
  });

  it('a first day that starts mid-day keeps each hour in its column: up from the next day lands on the same hour or the nearest', () => {
    const { final, from } = twoDays();
    const slots = slotsOf({ ...final, from: new Date(from + 20 * HOUR).toISOString() });
    const rows = rowsOf(slots);
    expect(rows.map((r) => r.slots.length)).toEqual([4, 24]);
    // 21:00 on the second day, up: 21:00 on the first (slot 1); 02:00 up: the first day's first hour, 20:00.
    expect(moveFrom(rows, slots, 4 + 21, 'ArrowUp', false)).toBe(1);
    expect(moveFrom(rows, slots, 4 + 2, 'ArrowUp', false)).toBe(0);
  });

  it('says a range in words, naming the second day only when it ends on another', () => {
    const { from } = twoDays();
    expect(rangeText(from + 2 * HOUR, from + 5 * HOUR)).not.toMatch(/,.*,.*,/);
    expect(rangeText(from + 22 * HOUR, from + 26 * HOUR).split(', ').length).toBeGreaterThan(rangeText(from + 2 * HOUR, from + 5 * HOUR).split(', ').length);
    // A range ending at midnight ends on the day it covers.
    expect(rangeText(from + 20 * HOUR, from + 24 * HOUR).split(', ').length).toBe(rangeText(from + 2 * HOUR, from + 5 * HOUR).split(', ').length);
  });
});
