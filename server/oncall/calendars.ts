import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AuditScope } from '../audit/trail';
import type { Whoami } from '../contract/auth';
import type { FeedUrl, ImportSchedule, OnCallScheduleInfo } from '../contract/oncall';
import type { Db } from '../db/client';
import { oncallFeedTokens, oncallOverrides, oncallSchedules, users } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { personFeed, runsOf, scheduleFeed } from './ical-export';
import { importCalendar, type PersonRef } from './ical-import';
import { checkScheduleName } from './resource';
import { instantOf } from './service';
import { allSchedules, compileOrRefuse, definitionOf, layerNameOf, lockSchedule, peopleOf, presentSchedules, refuse, scheduleTarget } from './store';

const DAY = 86_400_000;
/** What a feed holds: the last two weeks (shifts just done) and the next twelve. */
const FEED_BACK = 14 * DAY;
const FEED_AHEAD = 84 * DAY;

/**
 * A schedule from an iCalendar file (issue 27 §6): the schedule core reads the file
 * (server/oncall/ical-import.ts); people are matched to users by e-mail, then by username. Anyone
 * the file names who is not a user refuses the import (400 naming `calendar`), nothing written:
 * an on-call person must be someone Opsdeck can reach.
 */
export async function importSchedule(tx: Db, input: ImportSchedule & { description: string }, actor: Whoami, audit: AuditScope, now = Date.now()): Promise<{ schedule: OnCallScheduleInfo; warnings: string[] }> {
  const from = instantOf(input.from, 'from', now);
  const people = await tx.select({ id: users.id, username: users.username, email: users.email }).from(users);
  const byEmail = new Map(people.map((p) => [p.email.toLowerCase(), p.id]));
  const byName = new Map(people.map((p) => [p.username.toLowerCase(), p.id]));
  const resolvePerson = (ref: PersonRef) => (ref.email && byEmail.get(ref.email.toLowerCase())) || byName.get((ref.name ?? ref.raw).toLowerCase()) || byName.get(ref.raw.toLowerCase()) || null;
  const result = importCalendar(input.calendar, { timeZone: input.timeZone, from, resolvePerson });
  if (!result.ok) refuse(result.errors[0]!, (f) => (f === 'file' ? 'calendar' : f));
  if (result.unknownPeople.length) {
    const names = result.unknownPeople.map((p) => (p.email ? `${p.name ?? p.raw} <${p.email}>` : (p.name ?? p.raw)));
    throw badRequest(`calendar: ${names.length === 1 ? 'this person is' : 'these people are'} not Opsdeck users (matched by e-mail, then username): ${names.join(', ')}`, 'calendar');
  }
  await checkScheduleName(tx, input.name);
  const ids = new Map<string, string>();
  const layers = result.schedule.layers.map((l, i) => {
    const id = randomUUID();
    ids.set(l.id, id);
    return { ...l, id, name: l.name ?? `Layer ${i + 1}` };
  });
  const t = new Date(now);
  const [row] = await tx
    .insert(oncallSchedules)
    .values({ name: input.name, description: input.description, timeZone: result.schedule.timeZone, layers, createdById: actor._id, createdByName: actor.username, createdAt: t, updatedAt: t })
    .returning();
  audit.target(scheduleTarget(row!));
  const overrides = (result.schedule.overrides ?? []).map((o) => ({ id: randomUUID(), scheduleId: row!.id, userId: o.person, startsAt: new Date(o.start), endsAt: new Date(o.end), createdById: actor._id, createdByName: actor.username, createdAt: t }));
  for (let i = 0; i < overrides.length; i += 500) await tx.insert(oncallOverrides).values(overrides.slice(i, i + 500));
  const stored = { row: row!, overrides: overrides.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime()), swaps: [] };
  compileOrRefuse(definitionOf(stored), () => 'calendar');
  return { schedule: (await presentSchedules(tx, [stored]))[0]!, warnings: result.warnings };
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The feed's URL: the secret is the whole credential, so it is shown once and kept as a hash. */
async function makeFeed(tx: Db, owner: { scheduleId: string } | { userId: string }, actor: Whoami, publicUrl: string): Promise<FeedUrl> {
  const token = `odc_${randomBytes(24).toString('base64url')}`;
  const prefix = token.slice(0, 10);
  const where = 'scheduleId' in owner ? eq(oncallFeedTokens.scheduleId, owner.scheduleId) : eq(oncallFeedTokens.userId, owner.userId);
  await tx.delete(oncallFeedTokens).where(where);
  await tx.insert(oncallFeedTokens).values({ ...owner, tokenHash: hashOf(token), prefix, createdById: actor._id });
  return { url: `${publicUrl}/api/oncall/calendar?token=${token}`, token, prefix };
}

/** Makes the schedule's feed URL, or a new one in place of the old (which stops working at once). */
export async function createScheduleFeed(tx: Db, input: { id: string; publicUrl: string }, actor: Whoami, audit: AuditScope): Promise<FeedUrl> {
  const s = await lockSchedule(tx, input.id);
  audit.target(scheduleTarget(s.row));
  return makeFeed(tx, { scheduleId: s.row.id }, actor, input.publicUrl);
}

export async function revokeScheduleFeed(tx: Db, input: { id: string }, _actor: Whoami, audit: AuditScope): Promise<{ revoked: boolean }> {
  const s = await lockSchedule(tx, input.id);
  audit.target(scheduleTarget(s.row));
  const gone = await tx.delete(oncallFeedTokens).where(eq(oncallFeedTokens.scheduleId, s.row.id)).returning({ id: oncallFeedTokens.id });
  return { revoked: gone.length > 0 };
}

/** One's own feed: one's shifts in every schedule. */
export async function createPersonFeed(tx: Db, input: { publicUrl: string }, actor: Whoami, audit: AuditScope): Promise<FeedUrl> {
  audit.target({ kind: 'user', id: actor._id, name: actor.username });
  return makeFeed(tx, { userId: actor._id }, actor, input.publicUrl);
}

export async function revokePersonFeed(tx: Db, _input: object, actor: Whoami, audit: AuditScope): Promise<{ revoked: boolean }> {
  audit.target({ kind: 'user', id: actor._id, name: actor.username });
  const gone = await tx.delete(oncallFeedTokens).where(eq(oncallFeedTokens.userId, actor._id)).returning({ id: oncallFeedTokens.id });
  return { revoked: gone.length > 0 };
}

/** The calendar a feed secret opens (text/calendar); an unknown or revoked secret is a 404, as if there were no feed. */
export async function feedCalendar(db: Db, input: { token?: string }, now = Date.now()): Promise<string> {
  const missing = () => notFound('No calendar feed at this address (it may have been revoked)');
  if (!input.token) throw missing();
  const [feed] = await db.select().from(oncallFeedTokens).where(eq(oncallFeedTokens.tokenHash, hashOf(input.token))).limit(1);
  if (!feed) throw missing();
  const from = now - FEED_BACK;
  const to = now + FEED_AHEAD;
  if (feed.scheduleId) {
    const [s] = await allSchedules(db, { ids: [feed.scheduleId] });
    if (!s) throw missing();
    const spans = compileOrRefuse(definitionOf(s)).final(from, to);
    const people = await peopleOf(
      db,
      spans.map((x) => x.person),
    );
    return scheduleFeed({ key: s.row.id, name: s.row.name, timeZone: s.row.timeZone, now }, spans, (id) => ({ name: people.get(id)!.username, email: people.get(id)!.email || undefined }), (id) => layerNameOf(s, id));
  }
  const person = (await peopleOf(db, [feed.userId!])).get(feed.userId!)!;
  const shifts = (await allSchedules(db)).flatMap((s) => {
    const runs = runsOf(compileOrRefuse(definitionOf(s)).final(from, to), person._id);
    return runs.length ? [{ schedule: { key: s.row.id, name: s.row.name }, runs }] : [];
  });
  return personFeed({ key: person._id, name: `On call: ${person.username}`, now }, { name: person.username, email: person.email || undefined }, shifts);
}
