import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_BOUND } from '../../server/db/list-query';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * Issue 17 §4, docs/decisions.md "Counts": a list counts its matches exactly up to COUNT_BOUND
 * and, above it, answers the planner's estimate marked `countEstimated: true` — with the right
 * page either way.
 */
describe.each(await backends())('list counts on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  const list = (filter: Record<string, unknown>, page = 1, sort?: { by: string; direction: 'asc' | 'desc' }) =>
    t.call('POST', '/api/users/all', { cookie: admin, body: { pageNumber: page, pageSize: 25, filter, ...(sort ? { sort } : {}) } });

  /** How many "dense" users the planner expects (EXPLAIN's row estimate; no rows read). */
  const denseExpected = async () => {
    const [plan] = await t.database.query<{ 'QUERY PLAN': unknown }>(`explain (format json) select 1 from users where username_lc like '%dense%'`);
    const raw = plan!['QUERY PLAN'];
    return ((typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[])[0]!.Plan['Plan Rows'];
  };

  beforeAll(async () => {
    t = await startTestApp(backend);
    const u = await t.addUser({ role: 'admin', username: 'admin-counts' });
    admin = await t.signIn(u.email, u.password);
    // 3,000 "bulk" users (oldest first by number), and 40 of them also "rare".
    await t.database.query(
      `insert into users (username, email, phonenumber, password_hash, role, status, created_at)
       select 'bulk-' || lpad(i::text, 5, '0') || case when i % 75 = 0 then '-rare' else '' end, 'bulk' || i || '@example.com', '', 'x', 'user', 'active', timestamptz '2026-01-01' + (i || ' seconds')::interval
       from generate_series(1, 3000) i`,
    );
    await t.database.query('analyze users');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts few matches exactly, and pages them in order', async () => {
    const res = await list({ username: { contains: 'RARE' } }, 2, { by: 'createdAt', direction: 'asc' });
    expect(res.status).toBe(200);
    expect(res.body.result.count).toBe(40);
    expect(res.body.result.countEstimated).toBeUndefined();
    expect(res.body.result.data.map((u: { username: string }) => u.username)).toEqual(
      Array.from({ length: 15 }, (_, k) => `bulk-${String((k + 26) * 75).padStart(5, '0')}-rare`),
    );
    // Exactly at the bound is still exact.
    const atBound = await list({ username: { contains: 'bulk-00' } });
    expect(atBound.body.result.count).toBe(999);
    expect(atBound.body.result.countEstimated).toBeUndefined();
  });

  it('above the bound: an estimate, marked, never below the bound; the page is still the right one', async () => {
    expect(COUNT_BOUND).toBe(1000);
    const res = await list({ username: { contains: 'bulk' } }, 3, { by: 'createdAt', direction: 'desc' });
    expect(res.status).toBe(200);
    expect(res.body.result.countEstimated).toBe(true);
    expect(res.body.result.count).toBeGreaterThan(COUNT_BOUND);
    // The planner's figure, within reason of the true 3,000, rounded to two figures.
    expect(res.body.result.count).toBeGreaterThanOrEqual(1001);
    expect(res.body.result.count).toBeLessThanOrEqual(30_000);
    expect(res.body.result.data.map((u: { username: string }) => u.username.slice(0, 10))).toEqual(
      Array.from({ length: 25 }, (_, k) => `bulk-${String(3000 - 50 - k).padStart(5, '0')}`),
    );
    // One character typed: the same.
    const one = await list({ username: { contains: 'b' } });
    expect(one.body.result.countEstimated).toBe(true);
    expect(one.body.result.data).toHaveLength(25);
  });

  it('the services list does the same', async () => {
    const created = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'svc-counts-01', ipaddress: '10.79.0.1', operating_system: 'linux' } });
    expect(created.status).toBe(201);
    await t.database.query(
      `insert into services (server_id, service_name, status) select $1, 'unit-' || lpad(i::text, 4, '0') || case when i % 100 = 0 then '-rare' else '' end, 'active' from generate_series(1, 1500) i`,
      [created.body.result._id],
    );
    await t.database.query('analyze services');
    const services = (filter: Record<string, unknown>) => t.call('POST', '/api/prometheus/get-services/all', { cookie: admin, body: { pageNumber: 1, pageSize: 25, filter, sort: { by: 'name', direction: 'asc' } } });
    const rare = await services({ name: { contains: 'rare' } });
    expect(rare.body.result.count).toBe(15);
    expect(rare.body.result.countEstimated).toBeUndefined();
    const many = await services({ name: { contains: 'unit' } });
    expect(many.body.result.countEstimated).toBe(true);
    expect(many.body.result.count).toBeGreaterThan(COUNT_BOUND);
    expect(many.body.result.data.map((s: { service_name: string }) => s.service_name).slice(0, 2)).toEqual(['unit-0001', 'unit-0002']);
  });

  it('many expected and many found: rows read until more than the bound match, the page from the sort index', async () => {
    // 6,000 "dense" users: the planner expects thousands (the path that first proves the bound by reading rows).
    await t.database.query(
      `insert into users (username, email, phonenumber, password_hash, role, status, created_at)
       select 'dense-' || lpad(i::text, 5, '0'), 'dense' || i || '@example.com', '', 'x', 'user', 'active', timestamptz '2025-01-01' + (i || ' seconds')::interval
       from generate_series(1, 6000) i`,
    );
    await t.database.query('analyze users');
    expect(await denseExpected()).toBeGreaterThanOrEqual(4000);
    const res = await list({ username: { contains: 'dense' } }, 2, { by: 'createdAt', direction: 'asc' });
    expect(res.body.result.countEstimated).toBe(true);
    expect(res.body.result.count).toBeGreaterThan(COUNT_BOUND);
    expect(res.body.result.data.map((u: { username: string }) => u.username)).toEqual(Array.from({ length: 25 }, (_, k) => `dense-${String(26 + k).padStart(5, '0')}`));
  });

  it('many expected and few found (statistics older than a mass delete): counted exactly, the right page', async () => {
    // The planner still expects thousands of "dense" users after all but 30 are deleted (no analyze since; PGlite has no autovacuum).
    await t.database.query(`delete from users where username like 'dense-%' and substr(username, 7)::int % 200 <> 0`);
    const res = await list({ username: { contains: 'dense' } }, 1, { by: 'createdAt', direction: 'desc' });
    expect(res.status).toBe(200);
    expect(res.body.result.count).toBe(30);
    expect(res.body.result.countEstimated).toBeUndefined();
    expect(res.body.result.data.map((u: { username: string }) => u.username)).toEqual(Array.from({ length: 25 }, (_, k) => `dense-${String((30 - k) * 200).padStart(5, '0')}`));
    const past = await list({ username: { contains: 'dense' } }, 3, { by: 'createdAt', direction: 'desc' });
    expect(past.body.result).toMatchObject({ count: 30, data: [] });
    if (backend.name === 'pglite') {
      expect(await denseExpected()).toBeGreaterThanOrEqual(4000);
    }
  });
});
