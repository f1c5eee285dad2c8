import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRegistry } from '../../commands';
import { completionValues } from '../../src/app/command-host/entities';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { appContext, injectApi } from './app-context';

/**
 * Issue 27's on-call commands against the real API (PGlite), as typed on the command line:
 * schedules made, layered, overridden and swapped by name; who is on call; an import; Tab
 * completing schedules by name and people by username; History naming them by name.
 */
let t: TestApp;
let sys: { _id: string; username: string; role: 'sysadmin'; cookie: string };
let plain: { _id: string; username: string; role: 'user'; cookie: string };
const registry = createAppRegistry();

const line = async (text: string, who: typeof sys | typeof plain = sys) => {
  const { id, input } = parseCommandLine(text, registry.get);
  const ctx = appContext(t, registry, who, 'cmdline');
  return registry.dispatch(id, input, { source: 'cmdline', ctx });
};
const fixture = (name: string) => readFileSync(new URL(`../../server/oncall/fixtures/${name}`, import.meta.url), 'utf8');

beforeAll(async () => {
  const [pglite] = await backends();
  t = await startTestApp(pglite!);
  for (const name of ['ana', 'ben', 'chloe', 'dev']) await t.addUser({ role: 'user', username: name, email: `${name}@example.com` });
  const s = await t.addUser({ role: 'sysadmin', username: 'oncall-sys' });
  sys = { _id: s._id, username: 'oncall-sys', role: 'sysadmin', cookie: await t.signIn(s.email, s.password) };
  const u = await t.addUser({ role: 'user', username: 'oncall-user' });
  plain = { _id: u._id, username: 'oncall-user', role: 'user', cookie: await t.signIn(u.email, u.password) };
}, 60_000);
afterAll(async () => t?.close());

describe('on-call commands', () => {
  it('schedule.create, schedule.add-layer and schedule.edit-layer by name; oncall.who answers across the clock change', async () => {
    const created = await line('schedule.create Platform --tz Europe/London --people ana,ben --shift 1d --handoff 09:00 --start 2026-03-27 --layer primary');
    expect(created.message).toBe('Created the on-call schedule **Platform** (Europe/London): primary: ana → ben, every day at 09:00 from 2026-03-27.');
    const added = await line('schedule.add-layer platform --name lunch --people chloe --shift 1w --handoff 00:00 --start 2026-03-30 --hours "mon-fri 12:00-13:00"');
    expect(added.message).toBe('Added to **Platform** lunch: chloe, every week at 00:00 from 2026-03-30 (1 restriction).');
    expect((await line('oncall.who Platform --at 2026-03-29T07:59:00Z', plain)).message).toBe('On call at 2026-03-29 07:59 UTC:\n- **Platform**: **ben** (primary) until 2026-03-29 08:00 UTC');
    expect((await line('oncall.who Platform --at 2026-03-30T11:30:00Z', plain)).message).toBe('On call at 2026-03-30 11:30 UTC:\n- **Platform**: **chloe** (lunch) until 2026-03-30 12:00 UTC');
    const edited = await line('schedule.edit-layer Platform 2 --hours "mon 12:00-14:00"');
    expect(edited.message).toBe('Changed the layer of **Platform**: lunch: chloe, every week at 00:00 from 2026-03-30 (1 restriction).');
    expect((await line('oncall.who --at 2026-03-30T12:30:00Z', plain)).message).toBe('On call at 2026-03-30 12:30 UTC:\n- **Platform**: **chloe** (lunch) until 2026-03-30 13:00 UTC');
    // A layer with nobody in it, or someone who is not a user, is refused before anything changes.
    await expect(line('schedule.add-layer Platform --people')).rejects.toThrow();
    await expect(line('schedule.add-layer Platform --people zed')).rejects.toThrow('No user matches "zed"');
    await expect(line('schedule.create Mars --tz Mars/Olympus --people ana')).rejects.toThrow(/timeZone: "Mars\/Olympus" is not an IANA time zone/);
    // A user reads but does not change schedules: the gate says why.
    await expect(line('schedule.add-layer Platform --people ana', plain)).rejects.toThrow(/Only Admin or sysadmin accounts can do this/);
  });

  it('oncall.override puts someone on call over every layer; an overlapping one is refused naming the field', async () => {
    const made = await line('oncall.override Platform dev --from 2026-03-31T10:00:00Z --to 2026-03-31T14:00:00Z');
    expect(made.message).toBe('**dev** is on call for **Platform** from 2026-03-31 10:00 UTC to 2026-03-31 14:00 UTC.');
    expect((await line('oncall.who Platform --at 2026-03-31T12:00:00Z')).message).toMatch(/\*\*dev\*\* \(override\) until 2026-03-31 14:00 UTC/);
    await expect(line('oncall.override Platform ana --from 2026-03-31T13:00:00Z --to 2026-03-31T15:00:00Z')).rejects.toThrow(/start: overlaps dev's override/);
    await expect(line('oncall.override Platform ana --from 2026-03-31T16:00:00Z --to 2026-03-31T15:00:00Z')).rejects.toThrow(/end: the override ends/);
  });

  it('oncall.swap names each shift by a time inside it', async () => {
    // primary: 1 April is ben's day, 2 April ana's (09:00 BST = 08:00 UTC).
    const swapped = await line('oncall.swap Platform --first 2026-04-01T20:00:00Z --second 2026-04-02T20:00:00Z');
    expect(swapped.message).toBe("Swapped in **Platform**: **ana** takes ben's shift from 2026-04-01 08:00 UTC, **ben** takes ana's from 2026-04-02 08:00 UTC.");
    expect((await line('oncall.who Platform --at 2026-04-01T20:00:00Z')).message).toMatch(/\*\*ana\*\* \(primary\)/);
    await expect(line('oncall.swap Platform --first 2026-03-31T12:00:00Z --second 2026-04-03T20:00:00Z')).rejects.toThrow(/an override covers the schedule/);
  });

  it('schedule.import reads an export and names the people it matched', async () => {
    const calendar = fixture('pagerduty-final.ics');
    const ctx = appContext(t, registry, sys, 'palette');
    const result = await registry.dispatch('schedule.import', { name: 'PD primary', calendar, tz: 'America/New_York', from: '2025-02-24T00:00:00Z' }, { source: 'palette', ctx });
    expect(result.message).toBe('Imported **PD primary** (America/New_York): 1 layer, 1 override.\n- Layer 1: ana → ben → chloe, every week at 09:00 from 2025-02-24');
    const stranger = calendar.replaceAll('dev@example.com', 'dana@example.com').replaceAll('Dev Patel', 'Dana Ray');
    await expect(registry.dispatch('schedule.import', { name: 'PD 2', calendar: stranger, tz: 'America/New_York', from: '2025-02-24T00:00:00Z' }, { source: 'palette', ctx })).rejects.toThrow(/not Opsdeck users .*Dana Ray/);
  });

  it('schedule.feed and oncall.my-feed make a feed URL shown once, and --revoke ends it', async () => {
    const made = await line('schedule.feed Platform');
    const url = (made.data as { url: string }).url;
    expect(made.message).toContain(`\`${url}\``);
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    expect((await t.app.inject({ method: 'GET', url: path })).headers['content-type']).toMatch(/^text\/calendar/);
    expect((await line('schedule.feed Platform --revoke')).message).toBe('Revoked the calendar feed of **Platform**: its URL finds nothing now.');
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    await expect(line('schedule.feed Platform', plain)).rejects.toThrow(/Only Admin or sysadmin accounts/);
    const mine = await line('oncall.my-feed', plain);
    expect((await t.app.inject({ method: 'GET', url: (mine.data as { url: string }).url.replace(/^https?:\/\/[^/]+/, '') })).statusCode).toBe(200);
    expect((await line('oncall.my-feed --revoke', plain)).message).toBe('Revoked your calendar feed: its URL finds nothing now.');
    expect((await line('oncall.my-feed --revoke', plain)).message).toBe('You have no calendar feed.');
  });

  it('Tab completes schedules by name and people by username', async () => {
    const api = injectApi(t, sys.cookie);
    expect(await completionValues(api, 'sysadmin', registry.get('oncall.override')!.args![0]!, 'pl')).toEqual(['Platform']);
    expect(await completionValues(api, 'user', registry.get('oncall.who')!.args![0]!, '')).toEqual(['PD primary', 'Platform']);
    expect(await completionValues(api, 'sysadmin', registry.get('oncall.override')!.args![1]!, 'ch')).toEqual(['chloe']);
  });

  it('History names schedules and people by name', async () => {
    const ctx = appContext(t, registry, sys, 'palette');
    const schedule = (await t.call('POST', '/api/oncall-schedules/all', { cookie: sys.cookie, body: { filter: { name: 'Platform' } } })).body.result.data[0];
    const ana = schedule.people.find((p: { username: string }) => p.username === 'ana')._id;
    // The palette gives ids; the record reads by name.
    await registry.dispatch('oncall.override', { schedule: schedule._id, user: ana, from: '2026-04-10T10:00:00Z', to: '2026-04-10T12:00:00Z' }, { source: 'palette', ctx });
    const history = await t.call('POST', '/api/command-history/all', { cookie: sys.cookie, body: { filter: { command: 'oncall.override' }, sort: { by: 'createdAt', direction: 'desc' } } });
    const rec = history.body.result.data[0];
    expect(rec.displayLine).toBe('oncall.override Platform ana --from 2026-04-10T10:00:00Z --to 2026-04-10T12:00:00Z');
    expect(rec.targets.map((x: { name: string }) => x.name)).toEqual(['Platform', 'ana']);
  });
});
