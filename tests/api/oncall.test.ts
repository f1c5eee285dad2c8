import { readFileSync } from 'node:fs';
import ical from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { asDeclared, backends, startTestApp, type TestApp } from './harness';

/**
 * On-call schedules as a resource (issue 27 §1, §6, §8; docs/oncall.md): made and changed by
 * admins and sysadmins, read by everyone; who is on call at instants (across a clock change), the
 * final schedule, overrides and swaps, import from iCalendar, secret calendar feeds; bad input is
 * a 400 naming the field with nothing written.
 */
const fixture = (name: string) => readFileSync(new URL(`../../server/oncall/fixtures/${name}`, import.meta.url), 'utf8');

describe.each(await backends())('on-call schedules on $name', (backend) => {
  let t: TestApp;
  let sys: string;
  let userCookie: string;
  let adminCookie: string;
  const ids: Record<string, string> = {};
  let scheduleId = '';

  const rows = async () => ({ schedules: await t.count('oncall_schedules'), overrides: await t.count('oncall_overrides'), swaps: await t.count('oncall_swaps') });
  const who = async (at: string, schedule = scheduleId) => {
    const res = await t.call('GET', `/api/oncall/who?schedule=${encodeURIComponent(schedule)}&at=${encodeURIComponent(at)}`, { cookie: userCookie });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(asDeclared('oncall.who', res.body)).toEqual(res.body);
    return res.body.result[0] as { person: { username: string } | null; source: Record<string, unknown> | null; until: string | null };
  };
  /** A refused change: 400 naming the field, and no row of any on-call table written. */
  const refused = async (method: 'POST' | 'PATCH', url: string, body: unknown, field: string, message?: RegExp) => {
    const before = await rows();
    const res = await t.call(method, url, { cookie: sys, body });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.field).toBe(field);
    if (message) expect(res.body.message).toMatch(message);
    expect(await rows()).toEqual(before);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { publicUrl: 'https://ops.example.com' });
    for (const name of ['ana', 'ben', 'chloe', 'dev']) ids[name] = (await t.addUser({ role: 'user', username: name, email: `${name}@example.com` }))._id;
    const s = await t.addUser({ role: 'sysadmin', username: 'sys-oncall' });
    sys = await t.signIn(s.email, s.password);
    userCookie = await t.signIn('ana@example.com', 'pw-123456');
    const a = await t.addUser({ role: 'admin', username: 'admin-oncall' });
    adminCookie = await t.signIn(a.email, a.password);
  });
  afterAll(async () => t?.close());

  const primary = () => ({ name: 'primary', participants: [ids.ana, ids.ben], shift: { length: 1, unit: 'days' }, start: '2026-03-27', handoff: '09:00' });

  it('refuses a bad schedule with a 400 naming the field, writing nothing', async () => {
    await refused('POST', '/api/oncall-schedules', { name: 'Platform', timeZone: 'Europe/Atlantis', layers: [primary()] }, 'timeZone', /not an IANA time zone/);
    await refused('POST', '/api/oncall-schedules', { name: 'Platform', timeZone: 'Europe/London', layers: [] }, 'layers', /at least one layer/);
    await refused('POST', '/api/oncall-schedules', { name: 'Platform', timeZone: 'Europe/London', layers: [{ ...primary(), participants: [] }] }, 'layers.0.participants', /at least one person/);
    await refused('POST', '/api/oncall-schedules', { name: 'Platform', timeZone: 'Europe/London', layers: [{ ...primary(), participants: [ids.ana, '0e0b5f0e-1d2c-4c1b-9a43-5d6f1f0b0c00'] }] }, 'layers.0.participants.1', /no user with id/);
    await refused('POST', '/api/oncall-schedules', { name: 'Platform', timeZone: 'Europe/London', layers: [{ ...primary(), handoff: '25:00' }] }, 'layers.0.handoff');
  });

  it('only admins and sysadmins change schedules; every signed-in user reads them', async () => {
    const res = await t.call('POST', '/api/oncall-schedules', { cookie: userCookie, body: { name: 'Platform', timeZone: 'Europe/London', layers: [primary()] } });
    expect(res.status).toBe(403);
    expect(await t.count('oncall_schedules')).toBe(0);
    const made = await t.call('POST', '/api/oncall-schedules', { cookie: sys, body: { name: 'Platform', timeZone: 'Europe/London', layers: [primary()] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(asDeclared('oncallSchedules.create', made.body)).toEqual(made.body);
    scheduleId = made.body.result._id;
    expect(made.body.result).toMatchObject({ name: 'Platform', timeZone: 'Europe/London', layers: [{ name: 'primary', participants: [ids.ana, ids.ben], from: null, until: null, restrictions: [] }], overrides: [], swaps: [], feed: false });
    expect(made.body.result.people.map((p: { username: string }) => p.username)).toEqual(['ana', 'ben']);
    expect((await t.call('POST', '/api/oncall-schedules', { cookie: sys, body: { name: 'platform', timeZone: 'UTC', layers: [primary()] } })).status).toBe(409);
    const read = await t.call('GET', `/api/oncall-schedules/${scheduleId}`, { cookie: userCookie });
    expect(read.status).toBe(200);
    expect(read.body.result.layers).toHaveLength(1);
    const list = await t.call('POST', '/api/oncall-schedules/all', { cookie: userCookie, body: {} });
    expect(list.body.result).toMatchObject({ count: 1, data: [{ name: 'Platform', layers: [{ name: 'primary' }] }] });
    for (const [method, url, body] of [
      ['POST', `/api/oncall-schedules/${scheduleId}/layers`, { ...primary(), name: 'x' }],
      ['POST', `/api/oncall-schedules/${scheduleId}/overrides`, { user: ids.ana, start: '2026-04-01T00:00:00Z', end: '2026-04-01T01:00:00Z' }],
      ['PATCH', `/api/oncall-schedules/${scheduleId}`, { name: 'Mine' }],
      ['POST', `/api/oncall-schedules/${scheduleId}/feed`, undefined],
    ] as const)
      expect((await t.call(method, url, { cookie: userCookie, body })).status, `${method} ${url}`).toBe(403);
  });

  it('answers who is on call across the clock change: the 09:00 handoff stays at 09:00 local time', async () => {
    // Europe/London moves to BST at 01:00 UTC on 29 March 2026: 09:00 local is 08:00 UTC from then on.
    expect((await who('2026-03-28T08:59:00Z')).person?.username).toBe('ana');
    expect((await who('2026-03-28T09:00:00Z')).person?.username).toBe('ben');
    const before = await who('2026-03-29T07:59:00Z');
    // Ben's shift is 23 hours long: 09:00 GMT to 09:00 BST.
    expect(before).toMatchObject({ person: { username: 'ben' }, source: { type: 'layer', layerName: 'primary', shift: 1, shiftStart: '2026-03-28T09:00:00.000Z', shiftEnd: '2026-03-29T08:00:00.000Z' }, until: '2026-03-29T08:00:00.000Z' });
    expect((await who('2026-03-29T08:00:00Z')).person?.username).toBe('ana');
    // Before the first shift nobody is on call.
    expect(await who('2026-03-27T08:00:00Z')).toMatchObject({ person: null, source: null, until: null });
  });

  it('adds and edits layers: a later layer wins where it has someone; a layer with nobody is refused', async () => {
    const url = `/api/oncall-schedules/${scheduleId}/layers`;
    await refused('POST', url, { name: 'lunch', participants: [], shift: { length: 1, unit: 'weeks' }, start: '2026-03-30', handoff: '00:00' }, 'participants', /at least one person/);
    await refused('POST', url, { name: 'lunch', participants: ['not-a-user'], shift: { length: 1, unit: 'weeks' }, start: '2026-03-30', handoff: '00:00' }, 'participants.0', /no user with id "not-a-user"/);
    await refused('POST', url, { ...primary() }, 'name', /already called "primary"/);
    const added = await t.call('POST', url, { cookie: sys, body: { name: 'lunch', participants: [ids.chloe], shift: { length: 1, unit: 'weeks' }, start: '2026-03-30', handoff: '00:00', restrictions: [{ type: 'daily', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '12:00', to: '13:00' }] } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.result.layers.map((l: { name: string }) => l.name)).toEqual(['primary', 'lunch']);
    // Monday 30 March 12:30 BST = 11:30 UTC: the lunch cover wins; at 13:30 BST primary shows through.
    expect(await who('2026-03-30T11:30:00Z')).toMatchObject({ person: { username: 'chloe' }, source: { type: 'layer', layerName: 'lunch' } });
    expect((await who('2026-03-30T12:30:00Z')).person?.username).toBe('ben');
    // Edited by name: a restriction day that is not a weekday is refused, naming it.
    await refused('PATCH', `${url}/lunch`, { restrictions: [{ type: 'daily', days: ['someday'], from: '12:00', to: '13:00' }] }, 'restrictions.0.days.0');
    const edited = await t.call('PATCH', `${url}/2`, { cookie: sys, body: { restrictions: [{ type: 'daily', days: ['mon'], from: '12:00', to: '14:00' }] } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await who('2026-03-30T12:30:00Z')).person?.username).toBe('chloe');
    expect((await t.call('PATCH', `${url}/nope`, { cookie: sys, body: { name: 'x' } })).status).toBe(404);
  });

  it('overrides win over every layer; reversed, overlapping or unknown-user overrides are 400 naming the field', async () => {
    const url = `/api/oncall-schedules/${scheduleId}/overrides`;
    const made = await t.call('POST', url, { cookie: sys, body: { user: ids.dev, start: '2026-03-30T11:00:00Z', end: '2026-03-30T15:00:00Z' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.result.overrides).toMatchObject([{ person: ids.dev, start: '2026-03-30T11:00:00.000Z', end: '2026-03-30T15:00:00.000Z', createdBy: { username: 'sys-oncall' } }]);
    expect(await who('2026-03-30T11:30:00Z')).toMatchObject({ person: { username: 'dev' }, source: { type: 'override' }, until: '2026-03-30T15:00:00.000Z' });
    await refused('POST', url, { user: ids.ana, start: '2026-03-30T14:00:00Z', end: '2026-03-30T16:00:00Z' }, 'start', /overlaps dev's override from 2026-03-30T11:00Z to 2026-03-30T15:00Z/);
    await refused('POST', url, { user: ids.ana, start: '2026-03-31T16:00:00Z', end: '2026-03-31T14:00:00Z' }, 'end', /ends .* before or when it starts/);
    await refused('POST', url, { user: ids.ana, start: 'tomorrow', end: '2026-03-31T14:00:00Z' }, 'start', /not an instant/);
    await refused('POST', url, { user: '0e0b5f0e-1d2c-4c1b-9a43-5d6f1f0b0c00', start: '2026-03-31T10:00:00Z', end: '2026-03-31T14:00:00Z' }, 'user', /no user/);
    // Ranges that only touch do not overlap.
    const touching = await t.call('POST', url, { cookie: sys, body: { user: ids.ana, start: '2026-03-30T15:00:00Z', end: '2026-03-30T16:00:00Z' } });
    expect(touching.status).toBe(201);
    const removed = await t.call('DELETE', `${url}/${touching.body.result.overrides[1]._id}`, { cookie: sys });
    expect(removed.body.result.overrides).toHaveLength(1);
  });

  it('swaps two shifts: their people change places, and a bad swap is 400 naming the shift', async () => {
    const url = `/api/oncall-schedules/${scheduleId}/swaps`;
    // primary: 1 April (BST) is ben's shift, 2 April ana's.
    expect((await who('2026-04-01T20:00:00Z')).person?.username).toBe('ben');
    await refused('POST', url, { first: { layer: 'primary', start: '2026-04-01T09:00:00Z' }, second: { layer: 'primary', start: '2026-04-02T08:00:00Z' } }, 'first.start', /no shift of layer/);
    await refused('POST', url, { first: { layer: 'primary', start: '2026-04-01T08:00:00Z' }, second: { layer: 'primary', start: '2026-04-03T08:00:00Z' } }, 'second', /both shifts are/);
    await refused('POST', url, { first: { layer: 'nope', start: '2026-04-01T08:00:00Z' }, second: { layer: 'primary', start: '2026-04-02T08:00:00Z' } }, 'first.layer', /no layer "nope"/);
    const made = await t.call('POST', url, { cookie: sys, body: { first: { layer: 'primary', start: '2026-04-01T08:00:00Z' }, second: { layer: '1', start: '2026-04-02T08:00:00+00:00' } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.result.swaps).toHaveLength(1);
    expect(await who('2026-04-01T20:00:00Z')).toMatchObject({ person: { username: 'ana' }, source: { type: 'layer', swap: made.body.result.swaps[0]._id } });
    expect((await who('2026-04-02T20:00:00Z')).person?.username).toBe('ben');
  });

  it('answers the final schedule over a range, and who is on call in every schedule', async () => {
    const res = await t.call('GET', `/api/oncall-schedules/${scheduleId}/final?from=2026-03-29T00:00:00Z&to=2026-03-30T00:00:00Z`, { cookie: userCookie });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(asDeclared('oncallSchedules.final', res.body)).toEqual(res.body);
    expect(res.body.result.spans.map((s: { start: string; end: string; person: { username: string } }) => `${s.start} ${s.end} ${s.person.username}`)).toEqual([
      '2026-03-29T00:00:00.000Z 2026-03-29T08:00:00.000Z ben',
      '2026-03-29T08:00:00.000Z 2026-03-30T00:00:00.000Z ana',
    ]);
    expect(res.body.result.gaps).toEqual([]);
    expect((await t.call('GET', `/api/oncall-schedules/${scheduleId}/final?from=2026-03-29T00:00:00Z&to=2026-03-28T00:00:00Z`, { cookie: userCookie })).body.field).toBe('to');
    expect((await t.call('GET', `/api/oncall-schedules/${scheduleId}/final?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z`, { cookie: userCookie })).body.field).toBe('to');
    const all = await t.call('GET', '/api/oncall/who?at=2026-03-29T12:00:00Z', { cookie: userCookie });
    expect(all.body.result).toMatchObject([{ schedule: { name: 'Platform' }, person: { username: 'ana' } }]);
    expect((await t.call('GET', '/api/oncall/who?schedule=platform&at=2026-03-29T12:00:00Z', { cookie: userCookie })).body.result[0].person.username).toBe('ana');
    expect((await t.call('GET', '/api/oncall/who?schedule=nope', { cookie: userCookie })).status).toBe(404);
    expect((await t.call('GET', '/api/oncall/who?at=soon', { cookie: userCookie })).body.field).toBe('at');
  });

  it("answers the signed-in person's current or next shift, and null for someone in no rotation", async () => {
    // Ana and Ben take days in turn, for ever: Ana is on call now or within a day.
    const res = await t.call('GET', '/api/oncall/my-shift', { cookie: userCookie });
    expect(res.status).toBe(200);
    expect(asDeclared('oncall.myShift', res.body)).toEqual(res.body);
    const shift = res.body.result as { schedule: { name: string }; start: string; end: string; current: boolean };
    expect(shift.schedule.name).toBe('Platform');
    expect(Date.parse(shift.end)).toBeGreaterThan(Date.now());
    expect(Date.parse(shift.start)).toBeLessThan(Date.now() + 86_400_000);
    expect(shift.current).toBe(Date.parse(shift.start) <= Date.now());
    expect((await t.call('GET', '/api/oncall/my-shift', { cookie: sys })).body).toEqual({ result: null });
  });

  it("serves the schedule's and a person's calendar feed by its secret alone; rotated and revoked secrets are 404", async () => {
    const made = await t.call('POST', `/api/oncall-schedules/${scheduleId}/feed`, { cookie: sys });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { url, token } = made.body.result as { url: string; token: string };
    expect(url).toBe(`https://ops.example.com/api/oncall/calendar?token=${token}`);
    const path = url.slice('https://ops.example.com'.length);
    const feed = await t.app.inject({ method: 'GET', url: path });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^text\/calendar/);
    const events = Object.values(ical.sync.parseICS(feed.body)).filter((c) => c?.type === 'VEVENT') as ical.VEvent[];
    expect(events.length).toBeGreaterThan(10);
    expect(events.every((e) => /^On call: (ana|ben|chloe|dev)$/.test(String(e.summary)))).toBe(true);
    expect((await t.call('GET', `/api/oncall-schedules/${scheduleId}`, { cookie: userCookie })).body.result.feed).toBe(true);
    // Rotated: the old secret finds nothing.
    const rotated = await t.call('POST', `/api/oncall-schedules/${scheduleId}/feed`, { cookie: sys });
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    const fresh = `/api/oncall/calendar?token=${rotated.body.result.token}`;
    expect((await t.app.inject({ method: 'GET', url: fresh })).statusCode).toBe(200);
    expect((await t.call('DELETE', `/api/oncall-schedules/${scheduleId}/feed`, { cookie: sys })).body.result).toEqual({ revoked: true });
    expect((await t.app.inject({ method: 'GET', url: fresh })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/oncall/calendar' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/oncall/calendar?token=odc_wrong' })).statusCode).toBe(404);
    // The secret is the whole credential: the request log does not keep it.
    const lines: string[] = [];
    const logging = await buildApp(testConfig({ logLevel: 'info' }), { database: t.database, logStream: { write: (l) => void lines.push(l) } });
    try {
      await logging.inject({ method: 'GET', url: `/api/oncall/calendar?token=${rotated.body.result.token}` });
    } finally {
      await logging.close();
    }
    expect(lines.some((l) => l.includes('/api/oncall/calendar?token=[redacted]'))).toBe(true);
    expect(lines.join('\n')).not.toContain(rotated.body.result.token);

    // A person's own feed: their runs of on-call time in every schedule, as anyone signed in.
    const mine = await t.call('POST', '/api/oncall/my-feed', { cookie: userCookie });
    expect(mine.status).toBe(201);
    const personal = await t.app.inject({ method: 'GET', url: `/api/oncall/calendar?token=${mine.body.result.token}` });
    const own = Object.values(ical.sync.parseICS(personal.body)).filter((c) => c?.type === 'VEVENT') as ical.VEvent[];
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((e) => String(e.summary) === 'On call: Platform')).toBe(true);
    expect((await t.call('DELETE', '/api/oncall/my-feed', { cookie: userCookie })).body.result).toEqual({ revoked: true });
    expect((await t.app.inject({ method: 'GET', url: `/api/oncall/calendar?token=${mine.body.result.token}` })).statusCode).toBe(404);
  });

  it("imports PagerDuty's export: people by e-mail; anyone who is not a user refuses the import, writing nothing", async () => {
    const body = { name: 'Imported primary', calendar: fixture('pagerduty-final.ics'), timeZone: 'America/New_York', from: '2025-02-24T00:00:00Z' };
    // dev@example.com exists, as "dev": a calendar naming someone Opsdeck does not know is refused.
    const stranger = fixture('pagerduty-final.ics').replaceAll('dev@example.com', 'dana@example.com').replaceAll('Dev Patel', 'Dana Ray');
    await refused('POST', '/api/oncall-schedules/import', { ...body, calendar: stranger }, 'calendar', /not Opsdeck users .*Dana Ray <dana@example.com>/);
    await refused('POST', '/api/oncall-schedules/import', { ...body, calendar: 'hello' }, 'calendar', /not an iCalendar file/);
    await refused('POST', '/api/oncall-schedules/import', { ...body, timeZone: 'Mars/Olympus' }, 'timeZone');
    const res = await t.call('POST', '/api/oncall-schedules/import', { cookie: sys, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(asDeclared('oncallSchedules.import', res.body)).toEqual(res.body);
    const s = res.body.result.schedule;
    expect(s).toMatchObject({ name: 'Imported primary', timeZone: 'America/New_York', layers: [{ name: 'Layer 1', participants: [ids.ana, ids.ben, ids.chloe], shift: { length: 1, unit: 'weeks' }, handoff: '09:00' }], overrides: [{ person: ids.dev, start: '2025-03-12T17:00:00.000Z', end: '2025-03-13T01:00:00.000Z' }] });
    expect((await who('2025-03-12T18:00:00Z', s._id)).person?.username).toBe('dev');
    expect((await who('2025-03-14T18:00:00Z', s._id)).person?.username).toBe('chloe');
  });

  it('who is on call sees each change at once, though the schedule was just asked about: an override, its person deleted, a rename', async () => {
    const at = '2026-04-06T10:00:00Z';
    const everyone = async () => (await t.call('GET', `/api/oncall/who?at=${at}`, { cookie: userCookie })).body.result as { schedule: { _id: string; name: string }; person: { username: string } | null }[];
    const base = (await who(at)).person?.username;
    expect(base).toBeTruthy();
    const eve = (await t.addUser({ role: 'user', username: 'eve', email: 'eve@example.com' }))._id;
    const made = await t.call('POST', `/api/oncall-schedules/${scheduleId}/overrides`, { cookie: sys, body: { user: eve, start: '2026-04-06T09:00:00Z', end: '2026-04-06T11:00:00Z' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(await who(at)).toMatchObject({ person: { username: 'eve' }, source: { type: 'override' }, until: '2026-04-06T11:00:00.000Z' });
    expect((await everyone()).find((w) => w.schedule._id === scheduleId)?.person?.username).toBe('eve');
    // Deleting eve deletes her override: the schedule changed without an edit of its own.
    expect((await t.call('DELETE', `/api/users/${eve}`, { cookie: adminCookie })).status).toBe(200);
    expect((await who(at)).person?.username).toBe(base);
    expect((await everyone()).find((w) => w.schedule._id === scheduleId)?.person?.username).toBe(base);
    const renamed = await t.call('PATCH', `/api/oncall-schedules/${scheduleId}`, { cookie: sys, body: { name: 'Platform team' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await everyone()).find((w) => w.schedule._id === scheduleId)?.schedule.name).toBe('Platform team');
    expect((await who(at, 'platform team')).person?.username).toBe(base);
    expect((await t.call('PATCH', `/api/oncall-schedules/${scheduleId}`, { cookie: sys, body: { name: 'Platform' } })).status).toBe(200);
  });

  it('refuses to delete a user who is in a rotation, naming the schedules and layers', async () => {
    const res = await t.call('DELETE', `/api/users/${ids.chloe}`, { cookie: adminCookie });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('chloe is in the rotation of the on-call schedules “Imported primary” (layer Layer 1), “Platform” (layer lunch): take them out of it first');
    expect((await t.call('GET', `/api/users/${ids.chloe}`, { cookie: adminCookie })).status).toBe(200);
  });

  it('deletes a schedule with its overrides, swaps and feed', async () => {
    expect((await t.call('DELETE', `/api/oncall-schedules/${scheduleId}`, { cookie: userCookie })).status).toBe(403);
    expect((await t.call('DELETE', `/api/oncall-schedules/${scheduleId}`, { cookie: sys })).status).toBe(200);
    expect((await t.database.query<{ n: number }>(`select count(*)::int as n from oncall_overrides where schedule_id = $1`, [scheduleId]))[0]!.n).toBe(0);
    expect((await t.database.query<{ n: number }>(`select count(*)::int as n from oncall_swaps where schedule_id = $1`, [scheduleId]))[0]!.n).toBe(0);
    // Someone only in overrides may go: their covers go with them.
    expect((await t.call('DELETE', `/api/users/${ids.dev}`, { cookie: adminCookie })).status).toBe(200);
    expect((await t.database.query<{ n: number }>(`select count(*)::int as n from oncall_overrides where user_id = $1`, [ids.dev]))[0]!.n).toBe(0);
  });
});
