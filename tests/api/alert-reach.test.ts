/**
 * Alerts reach someone out of the box (issue 24 §6): the reach the dashboard reads, and the
 * default notification group — given to every rule that notifies nobody when it is set, and to
 * every rule made afterwards (a new server's defaults, a new check's rules, a reset). Bad input
 * is a 400 naming the field and changes nothing; only rules.write may set it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../server/config';
import { backends, startTestApp, type TestApp } from './harness';

describe.each(await backends())('alert reach on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let user: string;
  const q = <T = Record<string, any>>(sql: string, params?: unknown[]) => t.database.query<T>(sql, params);
  const reach = async () => (await t.call('GET', '/api/alerting/reach', { cookie: user })).body.result;
  const groupsOf = async (serverId: string) => (await q<{ g: string | null }>('select notification_group_id as g from alert_rules where server_id = $1 order by position', [serverId])).map((r) => r.g);
  const addServer = async (hostname: string, ip: string) => {
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname, ipaddress: ip, operating_system: 'linux', isAgentConfigured: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result._id as string;
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { delivery: { ...testConfig().delivery, smtpUrl: undefined, slackBotToken: undefined } });
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    const u = await t.addUser({ role: 'user' });
    user = await t.signIn(u.email, u.password);
  });
  afterAll(async () => t?.close());

  it('a fresh console with rules and no group says its alerts notify nobody; the default group fixes every rule and every new one', async () => {
    const first = await addServer('reach-1', '10.77.0.1');
    expect(await reach()).toEqual({ state: 'no-group', rules: 8, silentRules: 8, groups: 0, defaultGroup: null, groupsInUse: [] });
    expect((await t.call('GET', '/api/settings/default-notification-group', { cookie: user })).body.result).toEqual({ group: null, assigned: { rules: 0, checkRules: 0 } });

    const ops = (await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'Ops', emailEnabled: true, emailList: ['ops@example.com'] } })).body.result;
    const check = await t.call('POST', '/api/checks', { cookie: admin, body: { name: 'shop', kind: 'tcp', host: 'shop.example.com', port: 443, intervalSeconds: 3600, paused: true } });
    expect(check.status, JSON.stringify(check.body)).toBe(201);
    // Still nobody: the rules name no group, and there is no default yet.
    expect(await reach()).toMatchObject({ state: 'no-group', rules: 9, silentRules: 9, groups: 1, defaultGroup: null });

    const set = await t.call('PATCH', '/api/settings/default-notification-group', { cookie: admin, body: { groupId: ops._id } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    // 8 server rules and the check's 3 rules (the disabled ones too: a rule enabled later must reach someone).
    expect(set.body.result).toEqual({ group: { _id: ops._id, name: 'Ops' }, assigned: { rules: 8, checkRules: 3 } });
    expect(new Set(await groupsOf(first))).toEqual(new Set([ops._id]));
    // The group has an address but this console has no SMTP_URL: the alerts reach nobody, and it says why.
    expect(await reach()).toEqual({
      state: 'no-channel',
      rules: 9,
      silentRules: 0,
      groups: 1,
      defaultGroup: { _id: ops._id, name: 'Ops' },
      groupsInUse: [{ _id: ops._id, name: 'Ops', rules: 9, silentBecause: ['SMTP_URL is not set, so Opsdeck sends no email', 'it has no other channel'] }],
    });

    // New rules notify the default group: a new server's defaults, a new check's rules, a reset.
    const second = await addServer('reach-2', '10.77.0.2');
    expect(new Set(await groupsOf(second))).toEqual(new Set([ops._id]));
    const other = await t.call('POST', '/api/checks', { cookie: admin, body: { name: 'api', kind: 'tcp', host: 'api.example.com', port: 443, intervalSeconds: 3600, paused: true } });
    expect(other.body.result.rules.map((r: { notificationGroup: string | null }) => r.notificationGroup)).toEqual([ops._id, ops._id, ops._id]);
    // A check told "no group" keeps none.
    const none = await t.call('POST', '/api/checks', { cookie: admin, body: { name: 'quiet', kind: 'tcp', host: 'quiet.example.com', port: 443, intervalSeconds: 3600, paused: true, rules: { down: { notificationGroup: null } } } });
    expect(none.body.result.rules.map((r: { kind: string; notificationGroup: string | null }) => [r.kind, r.notificationGroup])).toEqual([
      ['down', null],
      ['latency', ops._id],
      ['cert_expiry', ops._id],
    ]);
    const [config] = await q<{ id: string }>('select id from alert_configs where server_id = $1', [second]);
    await q('update alert_rules set notification_group_id = null where server_id = $1', [second]);
    expect((await t.call('PATCH', `/api/alert-config/reset-alert-rules/${config!.id}`, { cookie: admin })).status).toBe(200);
    expect(new Set(await groupsOf(second))).toEqual(new Set([ops._id]));

    // A channel target makes the group reach someone.
    const channel = await t.call('POST', `/api/notification-groups/${ops._id}/channels`, { cookie: admin, body: { type: 'ntfy', name: 'phone', secrets: { topic: 'opsdeck-alerts' } } });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    expect(await reach()).toMatchObject({ state: 'ok', groupsInUse: [{ name: 'Ops', silentBecause: [] }] });
  });

  it('refuses a group that is not there, a bad id and extra fields, changing nothing; only rules.write may set it; --none clears it', async () => {
    const before = (await t.call('GET', '/api/settings/default-notification-group', { cookie: admin })).body.result;
    const missing = await t.call('PATCH', '/api/settings/default-notification-group', { cookie: admin, body: { groupId: '00000000-0000-4000-8000-00000000dead' } });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('groupId');
    const bad = await t.call('PATCH', '/api/settings/default-notification-group', { cookie: admin, body: { groupId: 'ops' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('groupId');
    expect((await t.call('PATCH', '/api/settings/default-notification-group', { cookie: admin, body: { groupId: null, extra: 1 } })).status).toBe(400);
    expect((await t.call('PATCH', '/api/settings/default-notification-group', { cookie: user, body: { groupId: null } })).status).toBe(403);
    expect((await t.call('PATCH', '/api/settings/default-notification-group', { body: { groupId: null } })).status).toBe(401);
    expect((await t.call('GET', '/api/settings/default-notification-group', { cookie: admin })).body.result).toEqual(before);

    const cleared = await t.call('PATCH', '/api/settings/default-notification-group', { cookie: admin, body: { groupId: null } });
    expect(cleared.body.result).toEqual({ group: null, assigned: { rules: 0, checkRules: 0 } });
    // Rules keep the group they were given; new ones notify nobody again.
    const third = await addServer('reach-3', '10.77.0.3');
    expect(new Set(await groupsOf(third))).toEqual(new Set([null]));
    // Its 8 rules and the down rule of the check told "no group".
    expect(await reach()).toMatchObject({ state: 'no-group', silentRules: 9, defaultGroup: null });
  });

  it('a deleted default group is no default: the rules it had notify nobody and the reach says so', async () => {
    const g = (await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'Short-lived', emailList: ['x@example.com'] } })).body.result;
    await t.call('PATCH', '/api/settings/default-notification-group', { cookie: admin, body: { groupId: g._id } });
    expect((await reach()).defaultGroup).toEqual({ _id: g._id, name: 'Short-lived' });
    expect((await t.call('DELETE', `/api/notification-groups/${g._id}`, { cookie: admin })).status).toBe(200);
    expect(await reach()).toMatchObject({ state: 'no-group', defaultGroup: null });
    expect((await t.call('GET', '/api/settings/default-notification-group', { cookie: user })).body.result.group).toBeNull();
  });
});
