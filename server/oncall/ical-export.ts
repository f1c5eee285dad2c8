/**
 * iCalendar (RFC 5545) feeds of on-call time, for calendar apps to subscribe to: a schedule's
 * final schedule (one event per span) and a person's shifts (one event per unbroken run, over
 * every schedule they are in). Written with ical.js, which also parses (ical-generator 11 needs
 * Node 22). Times are UTC, so no VTIMEZONE is needed and every app shows them in its own zone;
 * X-WR-TIMEZONE names the schedule's zone for apps that use it.
 */
import ICAL from 'ical.js';
import type { Range, Source, Span } from './model';

export interface Person {
  name: string;
  email?: string;
}

export interface FeedOptions {
  /** Stable part of every UID (e.g. the schedule's or person's id). */
  key: string;
  name: string;
  timeZone?: string;
  now: number;
}

const PRODID = '-//Opsdeck//On call//EN';

function calendar(o: FeedOptions): InstanceType<typeof ICAL.Component> {
  const cal = new ICAL.Component(['vcalendar', [], []]);
  cal.updatePropertyWithValue('prodid', PRODID);
  cal.updatePropertyWithValue('version', '2.0');
  cal.updatePropertyWithValue('calscale', 'GREGORIAN');
  cal.updatePropertyWithValue('method', 'PUBLISH');
  cal.updatePropertyWithValue('x-wr-calname', o.name);
  if (o.timeZone) cal.updatePropertyWithValue('x-wr-timezone', o.timeZone);
  // Subscribed calendars refresh on their own clock; asking for a quarter hour keeps handoffs current.
  const refresh = new ICAL.Property('refresh-interval', cal);
  refresh.setParameter('value', 'DURATION');
  refresh.setValue(ICAL.Duration.fromString('PT15M'));
  cal.addProperty(refresh);
  cal.updatePropertyWithValue('x-published-ttl', 'PT15M');
  return cal;
}

const utc = (ms: number) => ICAL.Time.fromJSDate(new Date(ms), true);
const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

function event(cal: InstanceType<typeof ICAL.Component>, o: FeedOptions, e: { uid: string; start: number; end: number; summary: string; description: string; attendee?: Person }) {
  const v = new ICAL.Component('vevent');
  v.updatePropertyWithValue('uid', e.uid);
  v.updatePropertyWithValue('dtstamp', utc(o.now));
  v.updatePropertyWithValue('dtstart', utc(e.start));
  v.updatePropertyWithValue('dtend', utc(e.end));
  v.updatePropertyWithValue('summary', e.summary);
  v.updatePropertyWithValue('description', e.description);
  v.updatePropertyWithValue('transp', 'OPAQUE');
  if (e.attendee) {
    const a = new ICAL.Property('attendee', v);
    a.setParameter('cn', e.attendee.name);
    a.setValue(e.attendee.email ? `mailto:${e.attendee.email}` : `urn:opsdeck:person:${encodeURIComponent(e.attendee.name)}`);
    v.addProperty(a);
  }
  cal.addSubcomponent(v);
}

function describe(source: Source, layerName: (id: string) => string): string {
  if (source.type === 'override') return 'Override';
  return `${layerName(source.layer)}${source.swap ? ' (swapped shift)' : ''}`;
}

/** A schedule's final schedule as a feed: "On call: <person>" for each span. */
export function scheduleFeed(o: FeedOptions, spans: Span[], people: (id: string) => Person, layerName: (id: string) => string = (id) => id): string {
  const cal = calendar(o);
  for (const s of spans) {
    const person = people(s.person);
    // The UID names the span's start and person, so an edit that only moves its end updates the same event.
    event(cal, o, { uid: `${o.key}-${stamp(s.start)}-${encodeURIComponent(s.person)}@opsdeck`, start: s.start, end: s.end, summary: `On call: ${person.name}`, description: `${o.name}: ${describe(s.source, layerName)}`, attendee: person });
  }
  return cal.toString();
}

/** A person's unbroken runs of on-call time in a span list (any layer or override). */
export function runsOf(spans: Span[], person: string): Range[] {
  const runs: Range[] = [];
  for (const s of spans) {
    if (s.person !== person) continue;
    const last = runs[runs.length - 1];
    if (last && last.end === s.start) last.end = s.end;
    else runs.push({ start: s.start, end: s.end });
  }
  return runs;
}

/** A person's shifts, over every schedule they are in, as a feed: "On call: <schedule>" for each. */
export function personFeed(o: FeedOptions, person: Person, shifts: { schedule: { key: string; name: string }; runs: Range[] }[]): string {
  const cal = calendar(o);
  for (const { schedule, runs } of shifts)
    for (const r of runs) event(cal, o, { uid: `${o.key}-${schedule.key}-${stamp(r.start)}@opsdeck`, start: r.start, end: r.end, summary: `On call: ${schedule.name}`, description: `${person.name} is on call for ${schedule.name}`, attendee: person });
  return cal.toString();
}
