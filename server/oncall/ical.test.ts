import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ICAL from 'ical.js';
import ical from 'node-ical';
import { describe, expect, it } from 'vitest';
import { personFeed, runsOf, scheduleFeed } from './ical-export';
import { importCalendar } from './ical-import';
import type { Schedule } from './model';
import { compileSchedule, type OnCallSchedule } from './schedule';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
const at = (s: string) => Date.parse(s);
const iso = (t: number) => new Date(t).toISOString();

function compiled(s: Schedule): OnCallSchedule {
  const r = compileSchedule(s);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.schedule;
}
/** Person-level final schedule: "start end person" with the same person's adjacent spans merged. */
function personLevel(c: OnCallSchedule, from: number, to: number): string[] {
  const out: { start: number; end: number; person: string }[] = [];
  for (const s of c.final(from, to)) {
    const last = out[out.length - 1];
    if (last && last.end === s.start && last.person === s.person) last.end = s.end;
    else out.push({ start: s.start, end: s.end, person: s.person });
  }
  return out.map((s) => `${iso(s.start)} ${iso(s.end)} ${s.person}`);
}

describe('iCalendar feeds', () => {
  const schedule = compiled({
    timeZone: 'Europe/London',
    layers: [{ id: 'primary', participants: ['ana', 'ben'], shift: { length: 1, unit: 'days' }, start: '2025-03-28', handoff: '09:00' }],
    overrides: [{ id: 'cover', person: 'chloe', start: '2025-03-30T10:00:00Z', end: '2025-03-30T12:00:00Z' }],
  });
  const people = (id: string) => ({ ana: { name: 'Ana Lopez', email: 'ana@example.com' }, ben: { name: 'Ben, "the" Okafor; ops' }, chloe: { name: 'Chloe Martin', email: 'chloe@example.com' } })[id]!;
  const from = at('2025-03-29T00:00:00Z');
  const to = at('2025-04-01T00:00:00Z');
  const spans = schedule.final(from, to);
  const text = scheduleFeed({ key: 'sched-1', name: 'Platform primary', timeZone: 'Europe/London', now: at('2025-03-28T12:00:00Z') }, spans, people, () => 'Primary rotation');

  it('a schedule feed parses back (node-ical) into one event per span, times exact across the clock change', () => {
    const parsed = Object.values(ical.sync.parseICS(text)).filter((c) => c?.type === 'VEVENT') as ical.VEvent[];
    expect(parsed.map((e) => `${e.start.toISOString()} ${e.end!.toISOString()} ${e.summary}`)).toEqual(spans.map((s) => `${iso(s.start)} ${iso(s.end)} On call: ${people(s.person).name}`));
    expect(parsed.map((e) => e.summary)).toContain('On call: Ben, "the" Okafor; ops');
    expect(new Set(parsed.map((e) => e.uid)).size).toBe(parsed.length);
    expect(parsed.find((e) => e.summary === 'On call: Chloe Martin')!.description).toBe('Platform primary: Override');
  });

  it('is RFC 5545 text: CRLF lines, a calendar name and zone, attendees ical.js reads', () => {
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const root = new ICAL.Component(ICAL.parse(text));
    expect(root.getFirstPropertyValue('x-wr-calname')).toBe('Platform primary');
    expect(root.getFirstPropertyValue('x-wr-timezone')).toBe('Europe/London');
    expect(root.getFirstPropertyValue('prodid')).toBe('-//Opsdeck//On call//EN');
    const first = new ICAL.Event(root.getFirstSubcomponent('vevent')!);
    expect(first.attendees[0]!.getFirstValue()).toMatch(/^mailto:|^urn:opsdeck:person:/);
  });

  it('a person feed has their unbroken runs, whatever put them there', () => {
    const runs = runsOf(spans, 'ana');
    const feed = personFeed({ key: 'user-ana', name: 'Ana Lopez — on call', now: at('2025-03-28T12:00:00Z') }, people('ana'), [{ schedule: { key: 'sched-1', name: 'Platform primary' }, runs }]);
    const parsed = Object.values(ical.sync.parseICS(feed)).filter((c) => c?.type === 'VEVENT') as ical.VEvent[];
    expect(parsed.map((e) => `${e.start.toISOString()} ${e.end!.toISOString()} ${e.summary}`)).toEqual([
      '2025-03-29T00:00:00.000Z 2025-03-29T09:00:00.000Z On call: Platform primary',
      '2025-03-30T08:00:00.000Z 2025-03-30T10:00:00.000Z On call: Platform primary',
      '2025-03-30T12:00:00.000Z 2025-03-31T08:00:00.000Z On call: Platform primary',
    ]);
  });
});

describe('importing exports', () => {
  it('Grafana OnCall (a Google Calendar): a daily recurring event with an edited occurrence becomes a pattern layer and an override', () => {
    const r = importCalendar(fixture('grafana-edited-recurring.ics'), { from: at('2021-01-24T00:00:00Z'), to: at('2021-02-07T00:00:00Z') });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.schedule.timeZone).toBe('Asia/Yekaterinburg');
    expect(r.schedule.layers).toHaveLength(1);
    expect(r.schedule.layers[0]!.participants).toEqual(['Bernard Desruisseaux']);
    expect(r.schedule.layers[0]!.restrictions).toHaveLength(7);
    expect(r.schedule.overrides).toEqual([{ id: 'imported-o1', person: 'Bob', start: '2021-01-27T08:00:00.000Z', end: '2021-01-27T17:00:00.000Z' }]);
    const c = compiled(r.schedule);
    expect(personLevel(c, at('2021-01-26T00:00:00Z'), at('2021-01-29T00:00:00Z'))).toEqual([
      '2021-01-26T08:00:00.000Z 2021-01-26T17:00:00.000Z Bernard Desruisseaux',
      '2021-01-27T08:00:00.000Z 2021-01-27T17:00:00.000Z Bob',
      '2021-01-28T08:00:00.000Z 2021-01-28T17:00:00.000Z Bernard Desruisseaux',
    ]);
    // Beyond the horizon the pattern goes on.
    expect(c.who(at('2021-06-01T10:00:00Z'))?.person).toBe('Bernard Desruisseaux');
    expect(r.warnings).toEqual([]);
  });

  it('Grafana OnCall rolling users: staggered weekly series become one rotation; a higher priority event wins', () => {
    const r = importCalendar(fixture('grafana-rolling.ics'), { from: at('2025-03-01T00:00:00Z') });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.schedule.layers[0]).toEqual({ id: 'imported-1', participants: ['alice', 'bob', 'carol'], shift: { length: 1, unit: 'weeks' }, start: '2025-03-03', handoff: '09:00', from: '2025-03-03T09:00:00.000Z' });
    const c = compiled(r.schedule);
    expect(personLevel(c, at('2025-03-24T00:00:00Z'), at('2025-04-08T00:00:00Z'))).toEqual([
      '2025-03-24T00:00:00.000Z 2025-03-24T09:00:00.000Z carol',
      '2025-03-24T09:00:00.000Z 2025-03-29T18:00:00.000Z alice',
      '2025-03-29T18:00:00.000Z 2025-03-30T11:00:00.000Z dave', // 18:00 GMT to 12:00 BST
      '2025-03-30T11:00:00.000Z 2025-03-31T08:00:00.000Z alice',
      '2025-03-31T08:00:00.000Z 2025-04-07T08:00:00.000Z bob',
      '2025-04-07T08:00:00.000Z 2025-04-08T00:00:00.000Z carol',
    ]);
  });

  it('PagerDuty: a final-schedule feed in UTC becomes a rotation in the schedule’s zone, the split shift an override', () => {
    const known: Record<string, string> = { 'ana@example.com': 'u-ana', 'ben@example.com': 'u-ben', 'chloe@example.com': 'u-chloe' };
    const r = importCalendar(fixture('pagerduty-final.ics'), { from: at('2025-02-24T00:00:00Z'), timeZone: 'America/New_York', resolvePerson: (p) => known[p.email ?? ''] ?? null });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.schedule.layers).toEqual([{ id: 'imported-1', participants: ['u-ana', 'u-ben', 'u-chloe'], shift: { length: 1, unit: 'weeks' }, start: '2025-02-24', handoff: '09:00', from: '2025-02-24T14:00:00.000Z', until: '2025-04-07T13:00:00.000Z' }]);
    expect(r.schedule.overrides).toEqual([{ id: 'imported-o1', person: 'dev@example.com', start: '2025-03-12T17:00:00.000Z', end: '2025-03-13T01:00:00.000Z' }]);
    expect(r.unknownPeople).toEqual([{ raw: 'On Call - Dev Patel - Platform Primary', name: 'Dev Patel', email: 'dev@example.com' }]);
    const c = compiled(r.schedule);
    expect(personLevel(c, at('2025-03-10T00:00:00Z'), at('2025-03-18T00:00:00Z'))).toEqual([
      '2025-03-10T00:00:00.000Z 2025-03-10T13:00:00.000Z u-ben',
      '2025-03-10T13:00:00.000Z 2025-03-12T17:00:00.000Z u-chloe',
      '2025-03-12T17:00:00.000Z 2025-03-13T01:00:00.000Z dev@example.com',
      '2025-03-13T01:00:00.000Z 2025-03-17T13:00:00.000Z u-chloe',
      '2025-03-17T13:00:00.000Z 2025-03-18T00:00:00.000Z u-ana',
    ]);
  });

  it('Opsgenie: weekday office hours with an EXDATE holiday and a cover, in a TZID with its VTIMEZONE', () => {
    const r = importCalendar(fixture('opsgenie-office-hours.ics'), { from: at('2025-03-01T00:00:00Z') });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.schedule.timeZone).toBe('Europe/Berlin');
    const c = compiled(r.schedule);
    const day = (d: string) => personLevel(c, at(`${d}T00:00:00+01:00`), at(`${d}T23:59:00+01:00`));
    expect(day('2025-03-25')).toEqual(['2025-03-25T08:00:00.000Z 2025-03-25T16:00:00.000Z Chloe Martin']);
    expect(day('2025-03-26')).toEqual(['2025-03-26T08:00:00.000Z 2025-03-26T11:00:00.000Z Chloe Martin', '2025-03-26T11:00:00.000Z 2025-03-26T16:00:00.000Z Ben Okafor']);
    expect(day('2025-03-31')).toEqual(['2025-03-31T07:00:00.000Z 2025-03-31T15:00:00.000Z Chloe Martin']); // CEST now
    expect(day('2025-04-18')).toEqual([]); // the EXDATE
    expect(day('2025-04-19')).toEqual([]); // Saturday
    expect(day('2025-04-21')).toEqual(['2025-04-21T07:00:00.000Z 2025-04-21T15:00:00.000Z Chloe Martin']);
    expect(c.who(at('2026-01-05T10:00:00+01:00'))?.person).toBe('Chloe Martin');
  });

  it('round trip: a feed Opsdeck wrote imports back to the same final schedule', () => {
    const original = compiled({
      timeZone: 'Australia/Sydney',
      layers: [{ id: 'x', participants: ['ana', 'ben', 'chloe'], shift: { length: 12, unit: 'hours' }, start: '2025-03-30', handoff: '08:00' }],
      overrides: [{ id: 'o', person: 'dev', start: '2025-04-10T00:00:00Z', end: '2025-04-10T05:00:00Z' }],
    });
    const from = at('2025-04-01T00:00:00Z');
    const to = at('2025-04-30T00:00:00Z');
    const feed = scheduleFeed({ key: 's', name: 'Sydney', timeZone: 'Australia/Sydney', now: from }, original.final(from, to), (id) => ({ name: id, email: `${id}@example.com` }));
    const r = importCalendar(feed, { from, to, resolvePerson: (p) => p.email!.split('@')[0]! });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.schedule.layers[0]!.shift).toEqual({ length: 12, unit: 'hours' });
    expect(personLevel(compiled(r.schedule), from, to)).toEqual(personLevel(original, from, to));
  });

  it('bad files say what is wrong', () => {
    expect(importCalendar('hello', { from: 0 })).toMatchObject({ ok: false, errors: [{ field: 'file' }] });
    expect(importCalendar('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n', { from: 0 })).toEqual({ ok: false, errors: [{ field: 'file', message: 'file: the calendar has no events between the import’s start and end' }] });
    expect(importCalendar(fixture('grafana-rolling.ics'), { from: 0, timeZone: 'Moon/Base' })).toMatchObject({ ok: false, errors: [{ field: 'timeZone' }] });
  });
});
