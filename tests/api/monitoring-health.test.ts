/**
 * Never blind without saying so, built-in mode (issue 12 §1): when the collector stalls the
 * server goes Stale, the health says why, and "Monitoring backend unreachable" is queued to the
 * chosen groups (default: every group with email on); it resolves when figures return, and the
 * resolution goes to the groups the firing went to. The admin setting refuses bad input.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../server/config';
import { nodeExporterWithDisk } from '../../server/monitoring/fixtures/node-exporter';
import { backends, startTestApp, type TestApp } from './harness';

const until = async (what: string, probe: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
};

describe.each(await backends())('monitoring health on $name', (backend) => {
  let t: TestApp;
  let exporter: Server;
  let admin: string;
  let sysadmin: string;
  let serverId: string;
  const groups: Record<string, string> = {};
  const q = <T = Record<string, any>>(sql: string, params?: unknown[]) => t.database.query<T>(sql, params);

  beforeAll(async () => {
    exporter = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(nodeExporterWithDisk(40)));
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    const base = testConfig();
    t = await startTestApp(backend, { monitoring: { ...base.monitoring, enabled: true, scrapeIntervalS: 1, scrapeTimeoutS: 0.9 } });
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    const s = await t.addUser({ role: 'sysadmin' });
    sysadmin = await t.signIn(s.email, s.password);
    for (const [name, emailEnabled] of [
      ['mail-on', true],
      ['mail-off', false],
      ['mail-on-too', true],
    ] as const) {
      const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name, emailEnabled, emailList: [`${name}@example.com`] } });
      groups[name] = res.body.result._id;
    }
    const created = await t.call('POST', '/api/servers', {
      cookie: admin,
      body: { hostname: 'stall', ipaddress: '127.0.0.1', operating_system: 'linux', agentPort: (exporter.address() as AddressInfo).port, isAgentConfigured: true },
    });
    serverId = created.body.result._id;
    await until('the first scrape', async () => (await t.call('GET', `/api/servers/${serverId}`, { cookie: admin })).body.result.state === 'up');
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => exporter.close(() => resolve()));
  });

  it('refuses a bad choice of groups with a 4xx naming the field, and changes nothing', async () => {
    const before = (await t.call('GET', '/api/settings/monitoring-alert-groups', { cookie: admin })).body.result;
    expect(before).toEqual({ groupIds: null, effective: [{ _id: groups['mail-on'], name: 'mail-on' }, { _id: groups['mail-on-too'], name: 'mail-on-too' }] });
    for (const body of [{ groupIds: ['nope'] }, { groupIds: 'x' }, {}, { groupIds: ['00000000-0000-4000-8000-000000000000'] }]) {
      const res = await t.call('PATCH', '/api/settings/monitoring-alert-groups', { cookie: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(res.body)).toMatch(/^groupIds/);
    }
    const extra = await t.call('PATCH', '/api/settings/monitoring-alert-groups', { cookie: admin, body: { groupIds: [groups['mail-on']], extra: 1 } });
    expect(extra.status).toBe(400);
    expect((await t.call('PATCH', '/api/settings/monitoring-alert-groups', { cookie: sysadmin, body: { groupIds: null } })).status).toBe(403);
    expect((await t.call('PATCH', '/api/settings/monitoring-alert-groups', { body: { groupIds: null } })).status).toBe(401);
    expect((await t.call('GET', '/api/settings/monitoring-alert-groups', { cookie: admin })).body.result).toEqual(before);
    expect(await q(`select 1 from settings where key = 'monitoring_alert_groups'`)).toEqual([]);
  });

  it('goes stale when the collector stalls, says why, and sends the meta alert to every group with email on', async () => {
    expect((await t.call('GET', '/api/monitoring/health', { cookie: admin })).body.result).toMatchObject({ status: 'ok', backend: 'built-in collector' });
    await t.app.monitoring.collector.stop();
    await until('the server to go stale', async () => (await t.call('GET', `/api/servers/${serverId}`, { cookie: admin })).body.result.state === 'stale');
    // A row can go stale one look before the collector itself counts as stalled (its last write
    // came a moment before the round's end), and with every row stale the console is already
    // blind ("No server has fresh figures…"); from the look that finds the collector stalled on,
    // the health and the row name the collector.
    await until('the console to see the collector stalled', async () => {
      const health = (await t.call('GET', '/api/monitoring/health', { cookie: admin })).body.result;
      return health.status === 'blind' && /^The built-in collector has written/.test(health.cause ?? '');
    });
    const row = (await t.call('GET', `/api/servers/${serverId}`, { cookie: admin })).body.result;
    expect(row.lastError).toMatch(/^The built-in collector has written no fresh figures for \d+ s$/);
    // The last figures stay, dated.
    expect(row.memoryUsage).not.toBeNull();
    const health = (await t.call('GET', '/api/monitoring/health', { cookie: admin })).body.result;
    expect(health).toMatchObject({ status: 'blind', staleServers: 1, alertId: expect.any(String) });
    expect(health.cause).toMatch(/^The built-in collector has written no fresh figures/);
    const ready = await t.call('GET', '/api/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.failing).toEqual(['monitoring']);

    const alert = (await t.call('GET', `/api/alerts/${health.alertId}`, { cookie: admin })).body.result;
    expect(alert).toMatchObject({ alertname: 'Monitoring backend unreachable', type: 'monitoring_alert', status: 'firing', serverId: null, hostname: 'Opsdeck', instance: 'built-in collector' });
    expect(alert.timeline.map((e: { type: string }) => e.type)).toEqual(['firing']);
    const outbox = await q<{ group: string; transition: string }>(
      `select g.name as group, o.transition from alert_outbox o join notification_groups g on g.id = o.notification_group_id where o.alert_id = $1 order by g.name`,
      [health.alertId],
    );
    expect(outbox).toEqual([
      { group: 'mail-on', transition: 'firing' },
      { group: 'mail-on-too', transition: 'firing' },
    ]);

    // An admin picks other groups while it is open: the resolution still goes to those told it fired.
    const chosen = await t.call('PATCH', '/api/settings/monitoring-alert-groups', { cookie: admin, body: { groupIds: [groups['mail-off'], groups['mail-off']] } });
    expect(chosen.status).toBe(200);
    expect(chosen.body.result).toEqual({ groupIds: [groups['mail-off']], effective: [{ _id: groups['mail-off'], name: 'mail-off' }] });

    t.app.monitoring.collector.start();
    await until('fresh figures', async () => (await t.call('GET', `/api/servers/${serverId}`, { cookie: admin })).body.result.state === 'up');
    await until('the meta alert to resolve', async () => (await t.call('GET', `/api/alerts/${health.alertId}`, { cookie: admin })).body.result.status === 'resolved');
    expect((await t.call('GET', '/api/monitoring/health', { cookie: admin })).body.result).toMatchObject({ status: 'ok', alertId: null, staleServers: 0 });
    const resolved = await q<{ group: string }>(
      `select g.name as group from alert_outbox o join notification_groups g on g.id = o.notification_group_id where o.alert_id = $1 and o.transition = 'resolved' order by g.name`,
      [health.alertId],
    );
    expect(resolved.map((r) => r.group)).toEqual(['mail-on', 'mail-on-too']);
    expect((await t.call('GET', '/api/ready')).status).toBe(200);

    // The next outage goes to the chosen group.
    await t.app.monitoring.collector.stop();
    await until('blind again', async () => (await t.call('GET', '/api/monitoring/health', { cookie: admin })).body.result.status === 'blind');
    const again = (await t.call('GET', '/api/monitoring/health', { cookie: admin })).body.result;
    expect(again.alertId).not.toBe(health.alertId);
    const next = await q<{ group: string }>(`select g.name as group from alert_outbox o join notification_groups g on g.id = o.notification_group_id where o.alert_id = $1`, [again.alertId]);
    expect(next.map((r) => r.group)).toEqual(['mail-off']);
    t.app.monitoring.collector.start();
  }, 60_000);
});
