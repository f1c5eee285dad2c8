import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRegistry } from '../../commands';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { parseMatchers } from '../../commands/silence/matcher-fields';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { appContext } from './app-context';

/**
 * Issue 14's commands against the real API (PGlite): silences, maintenance windows, escalation
 * policies and rule routing, as typed on the command line.
 */
let t: TestApp;
let admin: { _id: string; username: string; role: 'admin'; cookie: string };
const registry = createAppRegistry();
const asked: string[] = [];
let answer = true;

const line = async (text: string) => {
  const { id, input } = parseCommandLine(text, registry.get);
  const ctx = appContext(t, registry, admin, 'cmdline', () => answer);
  (ctx.confirm as unknown as { mockImplementation: (f: (r: { message: string }) => Promise<boolean>) => void }).mockImplementation(async (r) => {
    asked.push(r.message);
    return answer;
  });
  const result = await registry.dispatch(id, input, { source: 'cmdline', ctx });
  return { result, ctx };
};
const get = async (path: string) => (await t.call('GET', `/api/${path}`, { cookie: admin.cookie })).body.result;

beforeAll(async () => {
  const [pglite] = await backends();
  t = await startTestApp(pglite!);
  const a = await t.addUser({ role: 'admin', username: 'route-cmd' });
  admin = { _id: a._id, username: 'route-cmd', role: 'admin', cookie: await t.signIn(a.email, a.password) };
  await t.call('POST', '/api/servers', { cookie: admin.cookie, body: { hostname: 'web-01', ipaddress: '10.74.0.1', operating_system: 'linux', isAgentConfigured: true, labels: { env: 'prod' } } });
  await t.call('POST', '/api/notification-groups', { cookie: admin.cookie, body: { name: 'Ops' } });
  await t.call('POST', '/api/notification-groups', { cookie: admin.cookie, body: { name: 'DBA' } });
}, 60_000);
afterAll(async () => t?.close());

describe('routing commands', () => {
  it('reads matchers the Alertmanager way, commas inside regexes included', () => {
    expect(parseMatchers('hostname=~web-.*, alertname=high_cpu_usage,label.env!="dev box", service!~a{1,2}')).toEqual([
      { name: 'hostname', op: '=~', value: 'web-.*' },
      { name: 'alertname', op: '=', value: 'high_cpu_usage' },
      { name: 'label.env', op: '!=', value: 'dev box' },
      { name: 'service', op: '!~', value: 'a{1,2}' },
    ]);
    expect(() => parseMatchers('web-01')).toThrow('"web-01" is not a matcher');
  });

  it('silence.create previews first, asks only when it matches nothing, and creates; silence.list, silence.edit and silence.expire by comment words', async () => {
    asked.length = 0;
    const { result } = await line('silence.create "hostname=~web-.*" --for 2h --comment "Load test tonight"');
    expect(asked).toEqual([]);
    expect(result.message).toBe('Silenced `hostname=~web-.*` for 2h: matches 0 open alerts and 1 server now.');
    answer = false;
    await expect(line('silence.create "hostname=nowhere" --for 1h --comment nothing')).rejects.toThrow('Cancelled: nothing was silenced');
    expect(asked).toEqual(['This matches nothing now: no server and no open alert. Check the names and values (regexes must match the whole value). Create it anyway?']);
    answer = true;
    expect((await line('silence.list')).result.message).toMatch(/^1 silence:\n- Active: `hostname=~web-\.\*` until .* by route-cmd \(“Load test tonight”\)$/);
    const edited = await line('silence.edit "load test" --comment "Load test, round 2"');
    expect(edited.result.message).toMatch(/ \(“Load test, round 2”\)\.$/);
    expect((await line('silence.expire "round 2"')).result.message).toBe('Expired the silence `hostname=~web-.*` (“Load test, round 2”).');
    await expect(line('silence.create "hostname=~(web" --for 1h --comment x')).rejects.toThrow(/regex does not compile/);
  });

  it('maintenance.create by hostname, weekly in a zone; maintenance.edit; maintenance.delete asks by name', async () => {
    const { result } = await line('maintenance.create "Sunday patching" --servers web-01 --start "2030-01-06 02:00" --for 2h --rrule FREQ=WEEKLY;BYDAY=SU --tz Europe/Berlin');
    expect(result.message).toMatch(/^Created \*\*Sunday patching\*\* \(repeats FREQ=WEEKLY;BYDAY=SU, next .*\)\.$/);
    const w = result.data as { _id: string; serverIds: string[]; timezone: string };
    expect(w).toMatchObject({ timezone: 'Europe/Berlin', serverIds: [expect.any(String)] });
    await line('maintenance.edit "sunday" --rrule none --comment "once"');
    expect(await get(`maintenance-windows/${w._id}`)).toMatchObject({ rrule: null, comment: 'once' });
    await expect(line('maintenance.create "Bad" --servers web-01 --start "2030-01-06 02:00" --for 2h --rrule FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=31')).rejects.toThrow(/never occurs/);
    asked.length = 0;
    await line('maintenance.delete "Sunday patching"');
    expect(asked).toEqual(['Delete the maintenance window “Sunday patching”?']);
    expect((await t.call('GET', `/api/maintenance-windows/${w._id}`, { cookie: admin.cookie })).status).toBe(404);
  });

  it('group.set-escalation reads steps with groups and @users; rules.set-routing saves one rule’s routing', async () => {
    const { result } = await line('group.set-escalation Ops --steps "15m: DBA; 30m: @route-cmd" --repeat 1h --ackReminder 4h');
    expect(result.message).toBe('**Ops**: 2 escalation steps (15m, 30m), repeats every 1h, reminds owners after 4h.');
    const ops = (result.data as { escalationSteps: { groupId: string | null; userIds: string[] }[] }).escalationSteps;
    expect(ops[1]).toMatchObject({ groupId: null, userIds: [admin._id] });
    expect((await line('group.set-escalation Ops --steps none --repeat off')).result.message).toBe('**Ops**: no escalation, no repeat, reminds owners after 4h.');
    await expect(line('group.set-escalation Ops --steps "soon: DBA"')).rejects.toThrow('is not a step');
    // Issue 27 §3: a step may page whoever is on call in a schedule and named people, by their rules.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const made = await t.call('POST', '/api/oncall-schedules', { cookie: admin.cookie, body: { name: 'Route primary', timeZone: 'UTC', layers: [{ participants: [admin._id], shift: { length: 1, unit: 'weeks' }, start: yesterday, handoff: '00:00' }] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const paged = await line('group.set-escalation Ops --steps "5m: oncall:Route primary; 20m: DBA, page:@route-cmd"');
    expect(paged.result.message).toBe('**Ops**: 2 escalation steps (5m, 20m), no repeat, reminds owners after 4h.');
    expect((paged.result.data as { escalationSteps: unknown[] }).escalationSteps).toEqual([
      { afterSeconds: 300, groupId: null, userIds: [], scheduleIds: [made.body.result._id], pageUserIds: [] },
      { afterSeconds: 1200, groupId: expect.any(String), userIds: [], scheduleIds: [], pageUserIds: [admin._id] },
    ]);
    await expect(line('group.set-escalation Ops --steps "5m: oncall:Nowhere"')).rejects.toThrow(/Nowhere/);
    await line('group.set-escalation Ops --steps none');
    const routing = await line('rules.set-routing "high cpu" --server web-01 --hostDown off --minInterval 30m --flap 4/30m');
    expect(routing.result.message).toBe('**high cpu usage** on web-01: not suppressed while the host is down, at most one notification every 30m, flapping at 4 changes within 30m. Saved.');
    expect((await line('rules.set-routing "high cpu" --server web-01 --flap off')).result.message).toMatch(/no flap detection/);
  });
});
