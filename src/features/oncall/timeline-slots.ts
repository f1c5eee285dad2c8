import type { FinalSchedule } from '../../../server/contract/oncall';
import { sourceText } from './oncall-text';

const HOUR = 3_600_000;

/** Who is on call for part of a slot: a span of the final schedule, or a gap (person null). */
export interface SlotPart {
  start: number;
  end: number;
  person: string | null;
  /** "primary", "override", "secondary, swapped"; empty for a gap. */
  source: string;
  override: boolean;
}

/** One hour of the timeline and who is on call in it. */
export interface Slot {
  index: number;
  start: number;
  end: number;
  parts: SlotPart[];
}

/** A day of the timeline (the reader's calendar day): its slots, in order. */
export interface SlotRow {
  label: string;
  /** "Wed 9", where a phone has no room for the whole label. */
  short: string;
  slots: Slot[];
}

/**
 * The final schedule cut into hours from its start: every slot says who is on call in it, with
 * each change inside the hour (a handoff at 09:30, a gap).
 */
export function slotsOf(final: FinalSchedule): Slot[] {
  const from = Date.parse(final.from);
  const to = Date.parse(final.to);
  const pieces: SlotPart[] = [
    ...final.spans.map((s) => ({ start: Date.parse(s.start), end: Date.parse(s.end), person: s.person.username, source: sourceText(s.source), override: s.source.type === 'override' })),
    ...final.gaps.map((g) => ({ start: Date.parse(g.start), end: Date.parse(g.end), person: null, source: '', override: false })),
  ].sort((a, b) => a.start - b.start);
  const slots: Slot[] = [];
  let k = 0;
  for (let start = from, index = 0; start < to; start += HOUR, index++) {
    const end = Math.min(start + HOUR, to);
    while (k < pieces.length && pieces[k]!.end <= start) k++;
    const parts: SlotPart[] = [];
    for (let j = k; j < pieces.length && pieces[j]!.start < end; j++) if (pieces[j]!.end > start) parts.push({ ...pieces[j]!, start: Math.max(pieces[j]!.start, start), end: Math.min(pieces[j]!.end, end) });
    slots.push({ index, start, end, parts });
  }
  return slots;
}

const dayKey = (t: number) => new Date(t).toDateString();
const clock = (t: number) => new Date(t).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
const day = (t: number) => new Date(t).toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' });

/** Slots grouped by the reader's calendar day (a day the clocks change has 23 or 25). */
export function rowsOf(slots: Slot[]): SlotRow[] {
  const rows: SlotRow[] = [];
  for (const slot of slots) {
    const last = rows.at(-1);
    if (last && dayKey(last.slots[0]!.start) === dayKey(slot.start)) last.slots.push(slot);
    else rows.push({ label: day(slot.start), short: new Date(slot.start).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric' }), slots: [slot] });
  }
  return rows;
}


/** "ana (primary)", "nobody", or "ana (primary) until 09:30, then ben (override)". */
export function whoInSlot(slot: Slot): string {
  const one = (p: SlotPart) => (p.person ? `${p.person} (${p.source})` : 'nobody');
  if (!slot.parts.length) return 'nobody';
  return slot.parts.map((p, i) => (i < slot.parts.length - 1 ? `${one(p)} until ${clock(p.end)}` : one(p))).join(', then ');
}

/** What a slot announces when it has focus: "Mon, Dec 7, 09:00 to 10:00: ana (primary)". */
export const slotLabel = (slot: Slot) => `${day(slot.start)}, ${clock(slot.start)} to ${clock(slot.end)}: ${whoInSlot(slot)}`;

/** A range of instants in words: "Mon, Dec 7, 09:00 to 12:00" or across days "Mon, Dec 7, 22:00 to Tue, Dec 8, 02:00". */
export function rangeText(start: number, end: number): string {
  const sameDay = dayKey(start) === dayKey(end - 1);
  return `${day(start)}, ${clock(start)} to ${sameDay ? '' : `${day(end)}, `}${clock(end)}`;
}

/** The hour of a slot within its row, for its column: 0–23 (or 24 on a day with an hour twice). */
export function columnOf(row: SlotRow, slot: Slot): number {
  const first = row.slots[0]!;
  return new Date(first.start).getHours() + (slot.index - first.index);
}

/**
 * Where a key moves the focused slot, or null for a key the timeline does not take: arrows by an
 * hour (left, right) and a day (up, down: the same hour on the day before or after), Home and End
 * to the day's first and last hour, Ctrl+Home and Ctrl+End to the first and last of the range,
 * Page Up and Page Down by a week.
 */
export function moveFrom(rows: SlotRow[], slots: Slot[], at: number, key: string, ctrl: boolean): number | null {
  const last = slots.length - 1;
  const rowIndex = rows.findIndex((r) => r.slots.some((s) => s.index === at));
  const row = rows[rowIndex];
  if (!row) return null;
  const sameHour = (target: SlotRow | undefined) => {
    if (!target) return at;
    const column = columnOf(row, slots[at]!);
    const found = target.slots.find((s) => columnOf(target, s) === column);
    if (found) return found.index;
    return column < columnOf(target, target.slots[0]!) ? target.slots[0]!.index : target.slots.at(-1)!.index;
  };
  switch (key) {
    case 'ArrowLeft':
      return Math.max(0, at - 1);
    case 'ArrowRight':
      return Math.min(last, at + 1);
    case 'ArrowUp':
      return sameHour(rows[rowIndex - 1]);
    case 'ArrowDown':
      return sameHour(rows[rowIndex + 1]);
    case 'PageUp':
      return sameHour(rows[Math.max(0, rowIndex - 7)]);
    case 'PageDown':
      return sameHour(rows[Math.min(rows.length - 1, rowIndex + 7)]);
    case 'Home':
      return ctrl ? 0 : row.slots[0]!.index;
    case 'End':
      return ctrl ? last : row.slots.at(-1)!.index;
    default:
      return null;
  }
}
