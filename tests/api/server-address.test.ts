import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * Issue 13: an alert shows its server's current address. A server's new address reaches its open
 * alerts in the same change; resolved alerts keep the address they fired at.
 */
describe.each(await backends())('server address and its alerts on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
  });
  afterAll(async () => t?.close());

  it('moves the open alerts of an edited server to its new address, leaves resolved ones and other servers alone', async () => {
    const create = (hostname: string, ipaddress: string) => t.call('POST', '/api/servers', { cookie: admin, body: { hostname, ipaddress, operating_system: 'linux' } });
    const web = (await create('web-addr', '10.70.0.1')).body.result._id as string;
    const db = (await create('db-addr', '10.70.0.2')).body.result._id as string;
    const alert = (server: string, hostname: string, ip: string, status: string, subject: string) =>
      t.database.query(`insert into alerts (server_id, hostname, instance, alertname, type, severity, status, subject) values ($1, $2, $3, 'high_cpu_usage', 'resouce_alert', 'warning', $4, $5)`, [server, hostname, ip, status, subject]);
    await alert(web, 'web-addr', '10.70.0.1', 'firing', 'a');
    await alert(web, 'web-addr', '10.70.0.1', 'snoozed', 'b');
    await alert(web, 'web-addr', '10.70.0.1', 'resolved', '');
    await alert(db, 'db-addr', '10.70.0.2', 'firing', 'a');

    const res = await t.call('PATCH', `/api/servers/${web}`, { cookie: admin, body: { ipaddress: '10.70.0.11' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = await t.call('POST', '/api/alerts/all', { cookie: admin, body: { pageNumber: 1, pageSize: 25, filter: { hostname: { contains: '-addr' } } } });
    const shown = (list.body.result.data as { hostname: string; status: string; instance: string }[]).map((a) => `${a.hostname} ${a.status} ${a.instance}`).sort();
    expect(shown).toEqual(['db-addr firing 10.70.0.2', 'web-addr firing 10.70.0.11', 'web-addr resolved 10.70.0.1', 'web-addr snoozed 10.70.0.11']);
    // Searching by the new address finds the open alerts (the search text follows the column).
    const found = await t.call('POST', '/api/alerts/all', { cookie: admin, body: { pageNumber: 1, pageSize: 25, search: '10.70.0.11' } });
    expect(found.body.result.count).toBe(2);

    // An edit that does not touch the address changes no alert.
    await t.call('PATCH', `/api/servers/${web}`, { cookie: admin, body: { hostname: 'web-addr-2' } });
    expect((await t.database.query(`select count(*)::int as n from alerts where instance = '10.70.0.11'`))[0]).toEqual({ n: 2 });
  });
});
