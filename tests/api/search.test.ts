import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHit } from '../../server/contract/search';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * The palette's entity search (issue 13): one request answers servers, alerts, users, checks and
 * groups; every word must match, in any order (a multi-word search found no alerts when the
 * palette sent the whole text as one substring to each list).
 */
describe.each(await backends())('GET /api/search on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let user: string;
  const ids: Record<string, string> = {};

  const search = async (query: string, cookie = admin) => {
    const res = await t.call('GET', `/api/search?${query}`, { cookie });
    return { status: res.status, body: res.body, hits: (res.body?.result?.hits ?? []) as SearchHit[] };
  };
  const names = (hits: SearchHit[], kind: SearchHit['kind']) =>
    hits.filter((h) => h.kind === kind).map((h) => (h.kind === 'server' ? h.hostname : h.kind === 'alert' ? `${h.alertname} @ ${h.hostname}` : h.kind === 'user' ? h.username : h.name));

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin', username: 'search-admin' });
    admin = await t.signIn(a.email, a.password);
    const u = await t.addUser({ role: 'user', username: 'search-user' });
    user = await t.signIn(u.email, u.password);
    for (const [hostname, ip] of [
      ['web-s1.prod.example.net', '10.60.0.11'],
      ['web-s2.prod.example.net', '10.60.0.12'],
      ['db-s1.prod.example.net', '10.60.1.11'],
    ] as const) {
      const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname, ipaddress: ip, operating_system: 'linux' } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids[hostname] = res.body.result._id;
    }
    // Alerts as the evaluator writes them: the summary names the host and what is wrong.
    const alert = (host: string, alertname: string, summary: string, minutesAgo: number, service: string | null = null) =>
      t.database.query(
        `insert into alerts (server_id, hostname, instance, alertname, type, severity, status, summary, service, created_at)
         values ($1, $2, '10.60.0.1', $3, 'resouce_alert', 'critical', 'firing', $4, $5, now() - make_interval(mins => $6))`,
        [ids[host], host, alertname, summary, service, minutesAgo],
      );
    await alert('web-s1.prod.example.net', 'high_disk_usage', 'High disk usage on web-s1.prod.example.net', 30);
    await alert('web-s1.prod.example.net', 'critical_disk_usage', 'Disk almost full on web-s1.prod.example.net', 10);
    await alert('web-s2.prod.example.net', 'high_disk_usage', 'High disk usage on web-s2.prod.example.net', 20);
    await alert('web-s1.prod.example.net', 'service_down', 'Service nginx is down on web-s1.prod.example.net', 5, 'nginx');
    await alert('db-s1.prod.example.net', 'high_cpu_usage', 'High CPU usage on db-s1.prod.example.net', 1);
    expect((await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'Web on-call', description: '', emailEnabled: true, emailList: ['a@example.com', 'b@example.com'], slackEnabled: true, slackChannel: '#web' } })).status).toBe(201);
  });
  afterAll(async () => t?.close());

  it('finds alerts by several words in any order, each matching anywhere (host, name, summary)', async () => {
    // The report: "web-s1 disk" found no alerts, the text being no substring of any alert.
    const { status, hits } = await search('q=web-s1%20disk&kinds=alert');
    expect(status).toBe(200);
    expect(names(hits, 'alert')).toEqual(['critical_disk_usage @ web-s1.prod.example.net', 'high_disk_usage @ web-s1.prod.example.net']);
    expect(names((await search('q=DISK%20web-s1&kinds=alert')).hits, 'alert')).toEqual(names(hits, 'alert'));
    // Words as the palette shows an alert ("high disk usage · host"): underscores are not typed.
    expect(names((await search('q=high%20disk%20s2&kinds=alert')).hits, 'alert')).toEqual(['high_disk_usage @ web-s2.prod.example.net']);
    expect(names((await search('q=nginx%20down&kinds=alert')).hits, 'alert')).toEqual(['service_down @ web-s1.prod.example.net']);
    expect((await search('q=web-s1%20cpu&kinds=alert')).hits).toEqual([]);
  });

  it('answers every kind the caller may read in one request, newest alerts first, each hit with what the palette shows', async () => {
    const { hits } = await search('q=web');
    expect(names(hits, 'server').sort()).toEqual(['web-s1.prod.example.net', 'web-s2.prod.example.net']);
    expect(names(hits, 'alert')).toEqual([
      'service_down @ web-s1.prod.example.net',
      'critical_disk_usage @ web-s1.prod.example.net',
      'high_disk_usage @ web-s2.prod.example.net',
      'high_disk_usage @ web-s1.prod.example.net',
    ]);
    expect(names(hits, 'group')).toEqual(['Web on-call']);
    expect(hits.find((h) => h.kind === 'group')).toMatchObject({ emails: 2, slackEnabled: true, slackChannel: '#web' });
    const server = hits.find((h) => h.kind === 'server' && h.hostname === 'web-s1.prod.example.net');
    expect(server).toEqual({ kind: 'server', _id: ids['web-s1.prod.example.net'], hostname: 'web-s1.prod.example.net', ipaddress: '10.60.0.11', operating_system: 'linux', state: expect.any(String) });
    const alert = hits.find((h) => h.kind === 'alert')!;
    expect(alert).toMatchObject({ status: 'firing', severity: 'critical', summary: 'Service nginx is down on web-s1.prod.example.net' });
    expect(alert.kind === 'alert' && alert.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // Users only for those who may read them.
    expect(names((await search('q=search-')).hits, 'user').sort()).toEqual(['search-admin', 'search-user']);
    const asUser = await search('q=search-', user);
    expect(asUser.status).toBe(200);
    expect(names(asUser.hits, 'user')).toEqual([]);
  });

  it('finds a server by part of its address, takes LIKE characters literally, and keeps to the limit', async () => {
    expect(names((await search('q=10.60.1&kinds=server')).hits, 'server')).toEqual(['db-s1.prod.example.net']);
    expect((await search('q=web%25&kinds=server,alert')).hits).toEqual([]);
    expect((await search('q=web_s1&kinds=server')).hits).toEqual([]);
    const limited = await search('q=&kinds=alert,server&limit=2');
    expect(names(limited.hits, 'alert')).toEqual(['high_cpu_usage @ db-s1.prod.example.net', 'service_down @ web-s1.prod.example.net']);
    expect(names(limited.hits, 'server')).toHaveLength(2);
  });

  it('lists Active alerts first, then Snoozed, then Resolved, each newest first, and keeps to the limit across them', async () => {
    // The pickers listed resolved alerts first: a flapping host's newest alerts are resolved ones.
    const add = (alertname: string, status: string, minutesAgo: number) =>
      t.database.query(
        `insert into alerts (server_id, hostname, instance, alertname, type, severity, status, summary, created_at)
         values ($1, 'order-s1', '10.60.9.1', $2, 'resouce_alert', 'warning', $3, 'order test', now() - make_interval(mins => $4))`,
        [ids['db-s1.prod.example.net'], alertname, status, minutesAgo],
      );
    await add('resolved_newest', 'resolved', 0);
    await add('snoozed_new', 'snoozed', 0);
    await add('firing_old', 'firing', 50);
    await add('resolved_old', 'resolved', 60);
    await add('firing_new', 'firing', 2);
    await add('snoozed_old', 'snoozed', 40);
    expect(names((await search('q=order-s1&kinds=alert')).hits, 'alert')).toEqual(['firing_new', 'firing_old', 'snoozed_new', 'snoozed_old', 'resolved_newest', 'resolved_old'].map((n) => `${n} @ order-s1`));
    expect(names((await search('q=order-s1&kinds=alert&limit=3')).hits, 'alert')).toEqual(['firing_new', 'firing_old', 'snoozed_new'].map((n) => `${n} @ order-s1`));
    expect(names((await search('q=order-s1%20resolved&kinds=alert')).hits, 'alert')).toEqual(['resolved_newest @ order-s1', 'resolved_old @ order-s1']);
    await t.database.query(`delete from alerts where hostname = 'order-s1'`);
  });

  it('refuses bad input with a 4xx naming the field', async () => {
    expect((await search('q=web&kinds=server,planet')).body).toMatchObject({ statusCode: 400, field: 'kinds' });
    expect((await search('q=web&limit=500')).body).toMatchObject({ statusCode: 400, field: 'limit' });
    expect((await search('q=web&limit=x')).body).toMatchObject({ statusCode: 400, field: 'limit' });
    expect((await search(`q=${'a'.repeat(201)}`)).body).toMatchObject({ statusCode: 400, field: 'q' });
    expect((await search('q=a%00b')).body).toMatchObject({ statusCode: 400, field: 'q' });
    expect((await search('q=search&kinds=user', user)).body).toMatchObject({ statusCode: 403, field: 'kinds' });
    expect((await t.call('GET', '/api/search?q=web')).status).toBe(401);
  });
});
