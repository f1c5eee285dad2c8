import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * Deep pages (issue 17 §4): from an offset of 250 rows a walk along the sort index finds the
 * page's ids first and reads only their rows (server/db/list-query.ts DEEP_OFFSET). The page must
 * be the same rows, in the same order, as the plain walk would give — ties (the same created_at)
 * broken by the id, as every list pages.
 */
describe.each(await backends())('deep list pages on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let serverId: string;

  beforeAll(async () => {
    t = await startTestApp(backend);
    const u = await t.addUser({ role: 'admin', username: 'admin-deep' });
    admin = await t.signIn(u.email, u.password);
    await t.database.query(
      `insert into users (username, email, phonenumber, password_hash, role, status, created_at)
       select 'deep-' || lpad(i::text, 5, '0'), 'deep' || i || '@example.com', '', 'x', 'user', 'active', timestamptz '2026-01-01' + (i || ' seconds')::interval
       from generate_series(1, 1200) i`,
    );
    const [server] = await t.database.query<{ id: string }>(
      `insert into servers (hostname, ipaddress, agent_port, operating_system) values ('deep-01.example.net', '10.77.0.1', 9100, 'linux') returning id`,
    );
    serverId = server!.id;
    // 6,000 resolved alerts (more than the alerts list sorts by itself: a walk along its index),
    // two by two at the same moment so that the id decides their order, and 40 firing.
    await t.database.query(
      `insert into alerts (server_id, subject, hostname, instance, alertname, type, severity, status, summary, created_at, resolved_at)
       select $1, case when i <= 40 then 'deep-' || i else '' end, 'deep-01.example.net', '10.77.0.1', 'cpu', 'cpu_alert', 'warning',
              case when i <= 40 then 'firing' else 'resolved' end, 'High CPU usage on deep-01.example.net',
              timestamptz '2026-02-01' + ((i / 2) || ' minutes')::interval, case when i > 40 then timestamptz '2026-03-01' end
       from generate_series(1, 6040) i`,
      [serverId],
    );
    await t.database.query('analyze users');
    await t.database.query('analyze alerts');
  });
  afterAll(async () => {
    await t?.close();
  });

  const expected = (sql: string) => t.database.query<{ id: string }>(sql).then((rows) => rows.map((r) => r.id));

  it('users, unfiltered, page 40 of 25 in both directions', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const res = await t.call('POST', '/api/users/all', { cookie: admin, body: { pageNumber: 40, pageSize: 25, sort: { by: 'createdAt', direction } } });
      expect(res.status).toBe(200);
      expect(res.body.result.count).toBe(1201);
      expect(res.body.result.data.map((u: { _id: string }) => u._id)).toEqual(
        await expected(`select id from users order by created_at ${direction}, id asc limit 25 offset 975`),
      );
      expect(res.body.result.data[0].username).toMatch(/^(deep-\d{5}|admin-deep)$/);
    }
  });

  it('alerts, unfiltered and resolved, deep pages: the same alerts in the same order as the plain walk', async () => {
    const list = (body: Record<string, unknown>) => t.call('POST', '/api/alerts/all', { cookie: admin, body });
    const all = await list({ pageNumber: 120, pageSize: 25 });
    expect(all.status).toBe(200);
    expect(all.body.result.count).toBe(6040);
    expect(all.body.result.data.map((a: { _id: string }) => a._id)).toEqual(await expected(`select id from alerts order by created_at desc, id desc limit 25 offset 2975`));
    const resolved = await list({ pageNumber: 200, pageSize: 25, filter: { status: 'resolved' } });
    expect(resolved.body.result.count).toBe(6000);
    const ids = resolved.body.result.data.map((a: { _id: string }) => a._id);
    expect(ids).toEqual(await expected(`select id from alerts where status = 'resolved' order by created_at desc, id desc limit 25 offset 4975`));
    expect(resolved.body.result.data.every((a: { status: string }) => a.status === 'resolved')).toBe(true);
    // The last page: fewer than a whole page, and past it nothing.
    const last = await list({ pageNumber: 240, pageSize: 25, filter: { status: 'resolved' } });
    expect(last.body.result.data).toHaveLength(25);
    expect((await list({ pageNumber: 241, pageSize: 25, filter: { status: 'resolved' } })).body.result.data).toEqual([]);
  });
});
