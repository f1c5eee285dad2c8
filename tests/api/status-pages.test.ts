import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../server/contract/permissions';
import { publicStatusSchema } from '../../server/contract/status-pages';
import { alerts, checks, servers } from '../../server/db/schema';
import { backends, startTestApp, type TestApp } from './harness';

type Who = Role | 'anonymous';
const DAY = 86_400_000;
const dayKey = (ms: number) => new Date(Math.floor(ms / DAY) * DAY).toISOString().slice(0, 10);

describe.each(await backends())('status pages API on $name', (backend) => {
  let t: TestApp;
  const cookies = new Map<Who, string | undefined>();
  let serverId: string;
  let checkId: string;
  let otherServerId: string;
  const now = Date.now();
  const today = Math.floor(now / DAY) * DAY;

  const page = (over: Record<string, unknown> = {}) => ({
    slug: 'public-api',
    title: 'Acme status',
    description: 'What our customers use',
    groups: [
      { name: 'Core', items: [{ kind: 'server', id: serverId, displayName: 'Database' }] },
      { name: 'Web', items: [{ kind: 'check', id: checkId, displayName: 'Shop' }] },
    ],
    ...over,
  });
  const pub = async (slug: string) => t.call('GET', `/api/public/status/${slug}`);

  beforeAll(async () => {
    t = await startTestApp(backend);
    for (const who of ['admin', 'sysadmin', 'user', 'anonymous'] as Who[]) {
      if (who === 'anonymous') cookies.set(who, undefined);
      else {
        const u = await t.addUser({ role: who, username: `status-${who}` });
        cookies.set(who, await t.signIn(u.email, u.password));
      }
    }
    const db = t.database.db;
    const [s] = await db
      .insert(servers)
      .values({ hostname: 'db-internal-7.corp.example', ipaddress: '10.20.30.40', operatingSystem: 'linux', state: 'up', isAgentConfigured: true, createdAt: new Date(today - 10 * DAY) })
      .returning();
    serverId = s!.id;
    const [o] = await db.insert(servers).values({ hostname: 'batch-secret-host', ipaddress: '10.9.9.9', operatingSystem: 'linux', state: 'down' }).returning();
    otherServerId = o!.id;
    const [c] = await db
      .insert(checks)
      .values({ name: 'internal-shop-probe', kind: 'http', target: 'http://shop.internal.example:8443/healthz', url: 'http://shop.internal.example:8443/healthz', state: 'down' })
      .returning();
    checkId = c!.id;
    // Two days ago the server was down 06:00–12:00 UTC (a quarter of that day); today it is up.
    await db.insert(alerts).values({
      serverId,
      hostname: 'db-internal-7.corp.example',
      instance: '10.20.30.40:9100',
      alertname: 'instance_down',
      type: 'resouce_alert',
      severity: 'critical',
      status: 'resolved',
      createdAt: new Date(today - 2 * DAY + 6 * 3_600_000),
      resolvedAt: new Date(today - 2 * DAY + 12 * 3_600_000),
    });
    // Yesterday the check was up 90 of 100 times.
    await t.database.query('insert into check_daily (check_id, day, total, up) values ($1, $2::date, 100, 90)', [checkId, dayKey(today - DAY)]);
  });
  afterAll(async () => t.close());

  it('an admin composes a page; the signed-in view names what each item is', async () => {
    const res = await t.call('POST', '/api/status-pages', { cookie: cookies.get('admin'), body: page() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.result).toMatchObject({
      slug: 'public-api',
      title: 'Acme status',
      openIncident: null,
      groups: [
        { name: 'Core', items: [{ kind: 'server', id: serverId, displayName: 'Database', showAddress: false, name: 'db-internal-7.corp.example' }] },
        { name: 'Web', items: [{ kind: 'check', id: checkId, displayName: 'Shop', showAddress: false, name: 'internal-shop-probe' }] },
      ],
    });
    const list = await t.call('POST', '/api/status-pages/all', { cookie: cookies.get('user'), body: {} });
    expect(list.body.result.count).toBe(1);
  });

  it('only admins compose pages; anonymous callers are refused', async () => {
    for (const [who, status] of [
      ['sysadmin', 403],
      ['user', 403],
      ['anonymous', 401],
    ] as const) {
      const res = await t.call('POST', '/api/status-pages', { cookie: cookies.get(who), body: page({ slug: `by-${who}` }) });
      expect(res.status, who).toBe(status);
    }
    expect(await t.count('status_pages')).toBe(1);
  });

  it('bad input is a 400 naming the field and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [page(), 'slug'],
      [page({ slug: 'Public API' }), 'slug'],
      [page({ slug: '' }), 'slug'],
      [page({ slug: 'ok-slug', title: '' }), 'title'],
      [page({ slug: 'ok-slug', groups: [{ name: 'x', items: [{ kind: 'server', id: checkId, displayName: 'Wrong kind' }] }] }), 'groups.0.items.0.id'],
      [page({ slug: 'ok-slug', groups: [{ name: 'x', items: [{ kind: 'server', id: serverId, displayName: '' }] }] }), 'groups.0.items.0.displayName'],
      [
        page({
          slug: 'ok-slug',
          groups: [
            { name: 'a', items: [{ kind: 'server', id: serverId, displayName: 'A' }] },
            { name: 'b', items: [{ kind: 'server', id: serverId, displayName: 'B' }] },
          ],
        }),
        'groups.1.items.0.id',
      ],
      [page({ slug: 'ok-slug', hostname: 'x' }), 'hostname'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call('POST', '/api/status-pages', { cookie: cookies.get('admin'), body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(res.body)).toBe(field);
    }
    expect(await t.count('status_pages')).toBe(1);
    // A rename onto another page's slug: the same 400, and the page keeps its slug.
    const other = await t.call('POST', '/api/status-pages', { cookie: cookies.get('admin'), body: { slug: 'other', title: 'Other' } });
    expect(other.status).toBe(201);
    const clash = await t.call('PATCH', `/api/status-pages/${other.body.result._id}`, { cookie: cookies.get('admin'), body: { slug: 'public-api' } });
    expect(clash.status).toBe(400);
    expect(clash.body).toMatchObject({ field: 'slug', message: 'slug: another status page already has the slug "public-api"' });
    expect((await t.call('GET', `/api/status-pages/${other.body.result._id}`, { cookie: cookies.get('admin') })).body.result.slug).toBe('other');
    expect((await t.call('DELETE', `/api/status-pages/${other.body.result._id}`, { cookie: cookies.get('admin') })).status).toBe(200);
  });

  it('serves the page without sign-in: states, 90-day bars from instance_down alerts and check rollups', async () => {
    const res = await pub('public-api');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const view = publicStatusSchema.parse(res.body.result);
    expect(view).toMatchObject({ title: 'Acme status', description: 'What our customers use', overall: 'down', incidents: [] });
    const [db] = view.groups[0]!.items;
    const [shop] = view.groups[1]!.items;
    expect(db).toMatchObject({ name: 'Database', state: 'up' });
    expect(shop).toMatchObject({ name: 'Shop', state: 'down', uptime90d: 90 });
    for (const item of [db!, shop!]) {
      expect(item.days).toHaveLength(90);
      expect(item.days.at(-1)!.day).toBe(dayKey(now));
    }
    const byDay = new Map(db!.days.map((d) => [d.day, d.uptime]));
    expect(byDay.get(dayKey(today - 2 * DAY))).toBe(75);
    expect(byDay.get(dayKey(today - 3 * DAY))).toBe(100);
    expect(byDay.get(dayKey(today - 11 * DAY))).toBeNull(); // before the server was registered
    // Ten full days and today so far, six hours of it down.
    const total = 10 * DAY + (now - today);
    expect(db!.uptime90d).toBeCloseTo(((total - 6 * 3_600_000) / total) * 100, 2);
    expect(new Map(shop!.days.map((d) => [d.day, d.uptime])).get(dayKey(today - DAY))).toBe(90);

    expect((await pub('no-such-page')).status).toBe(404);
    expect((await pub('..%2Fapi')).status).toBe(404);
  });

  it('leaks nothing the page does not show: no ids, hostnames, IP addresses, check names or targets, unless chosen', async () => {
    const id = (await t.call('POST', '/api/status-pages/all', { cookie: cookies.get('admin'), body: { filter: { slug: 'public-api' } } })).body.result.data[0]._id as string;
    expect((await t.call('POST', `/api/status-pages/post/${id}`, { cookie: cookies.get('admin'), body: { body: 'Looking into it' } })).status).toBe(201);
    const text = JSON.stringify((await pub('public-api')).body);
    for (const secret of ['db-internal-7', '10.20.30.40', 'internal-shop-probe', 'shop.internal.example', serverId, checkId, id, 'status-admin', 'admin', 'batch-secret-host', '10.9.9.9']) {
      expect(text, secret).not.toContain(secret);
    }
    expect(text).not.toMatch(/"_?id"/);
    // Addresses appear only where the admin ticks them.
    const shown = await t.call('PATCH', `/api/status-pages/${id}`, {
      cookie: cookies.get('admin'),
      body: {
        groups: [
          { name: 'Core', items: [{ kind: 'server', id: serverId, displayName: 'Database', showAddress: true }] },
          { name: 'Web', items: [{ kind: 'check', id: checkId, displayName: 'Shop' }] },
        ],
      },
    });
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    const view = (await pub('public-api')).body.result;
    expect(view.groups[0].items[0].address).toBe('10.20.30.40');
    expect(view.groups[1].items[0]).not.toHaveProperty('address');
    expect(JSON.stringify(view)).not.toContain('shop.internal.example');
    await t.call('POST', `/api/status-pages/resolve/${id}`, { cookie: cookies.get('admin'), body: {} });
  });

  it('status.post and status.resolve: one open incident, updates in order, recorded in the history', async () => {
    const id = (await t.call('POST', '/api/status-pages/all', { cookie: cookies.get('admin'), body: { filter: { slug: 'public-api' } } })).body.result.data[0]._id as string;
    const md = '## Checkout errors\nWe see **failed payments**. <script>alert(1)</script> [details](javascript:alert(1))';
    const first = await t.call('POST', `/api/status-pages/post/${id}`, { cookie: cookies.get('sysadmin'), body: { body: md } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.result).toMatchObject({ opened: true, incident: { title: 'Checkout errors', resolvedAt: null } });
    const second = await t.call('POST', `/api/status-pages/post/${id}`, { cookie: cookies.get('admin'), body: { body: 'A fix is rolling out.' } });
    expect(second.body.result).toMatchObject({ opened: false, incident: { title: 'Checkout errors' } });
    expect((await t.call('GET', `/api/status-pages/${id}`, { cookie: cookies.get('user') })).body.result.openIncident).toBe('Checkout errors');

    // Refused: a user, an empty post, an unknown page; nothing written.
    const posts = await t.count('status_posts');
    expect((await t.call('POST', `/api/status-pages/post/${id}`, { cookie: cookies.get('user'), body: { body: 'x' } })).status).toBe(403);
    const empty = await t.call('POST', `/api/status-pages/post/${id}`, { cookie: cookies.get('admin'), body: { body: '   ' } });
    expect(empty).toMatchObject({ status: 400, body: { field: 'body' } });
    expect((await t.call('POST', '/api/status-pages/post/00000000-0000-4000-8000-000000000000', { cookie: cookies.get('admin'), body: { body: 'x' } })).status).toBe(404);
    expect(await t.count('status_posts')).toBe(posts);

    let view = (await pub('public-api')).body.result;
    expect(view.incidents[0]).toMatchObject({ title: 'Checkout errors', resolvedAt: null, posts: [{ body: md, resolves: false }, { body: 'A fix is rolling out.', resolves: false }] });

    const resolved = await t.call('POST', `/api/status-pages/resolve/${id}`, { cookie: cookies.get('sysadmin'), body: { body: 'Payments work again.' } });
    expect(resolved.status).toBe(200);
    expect((await t.call('POST', `/api/status-pages/resolve/${id}`, { cookie: cookies.get('sysadmin'), body: {} })).status).toBe(409);
    view = (await pub('public-api')).body.result;
    expect(view.incidents[0].resolvedAt).not.toBeNull();
    expect(view.incidents[0].posts.at(-1)).toMatchObject({ body: 'Payments work again.', resolves: true });
    // The earlier incident (from the leakage test) is listed after it, resolved with the default text.
    expect(view.incidents[1]).toMatchObject({ title: 'Looking into it', posts: [{ body: 'Looking into it' }, { body: 'This incident has been resolved.', resolves: true }] });

    const history = await t.call('POST', '/api/command-history/all', { cookie: cookies.get('admin'), body: { filter: { targetId: id } } });
    const routes = history.body.result.data.filter((r: { outcome: string }) => r.outcome === 'ok').map((r: { route: string; username: string }) => `${r.route} ${r.username}`);
    expect(routes).toEqual(expect.arrayContaining(['/api/status-pages/post/:id status-sysadmin', '/api/status-pages/resolve/:id status-sysadmin', '/api/status-pages/post/:id status-admin']));
  });

  it('finds the page before it reads a post: an unknown page is a 404 whatever the body, a refused post is recorded against its page', async () => {
    const id = (await t.call('POST', '/api/status-pages/all', { cookie: cookies.get('admin'), body: { filter: { slug: 'public-api' } } })).body.result.data[0]._id as string;
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await t.call('POST', `/api/status-pages/post/${unknown}`, { cookie: cookies.get('admin'), body: { body: '   ' } })).toMatchObject({ status: 404, body: { message: `No status page with id "${unknown}"` } });
    expect(await t.call('POST', `/api/status-pages/resolve/${unknown}`, { cookie: cookies.get('admin'), body: { note: 'x' } })).toMatchObject({ status: 404 });
    // Signed out or without the permission, the page is not looked up at all.
    expect((await t.call('POST', `/api/status-pages/post/${unknown}`, { body: { body: 'x' } })).status).toBe(401);
    expect((await t.call('POST', `/api/status-pages/post/${unknown}`, { cookie: cookies.get('user'), body: { body: 'x' } })).status).toBe(403);
    const refused = await t.call('POST', `/api/status-pages/resolve/${id}`, { cookie: cookies.get('admin'), body: { note: 'x' } });
    expect(refused).toMatchObject({ status: 400, body: { field: 'note' } });
    const history = await t.call('POST', '/api/command-history/all', { cookie: cookies.get('admin'), body: { filter: { targetId: id } } });
    const record = history.body.result.data.find((r: { route: string; status: number | null }) => r.route === '/api/status-pages/resolve/:id' && r.status === 400);
    expect(record).toMatchObject({ outcome: 'error', targets: [{ kind: 'status_page', id, name: 'public-api' }] });
  });

  it('leaves out items whose server was deleted, and deleting the page takes its incidents', async () => {
    const res = await t.call('POST', '/api/status-pages', {
      cookie: cookies.get('admin'),
      body: { slug: 'batch', title: 'Batch', groups: [{ name: '', items: [{ kind: 'server', id: otherServerId, displayName: 'Batch jobs' }] }] },
    });
    expect(res.status).toBe(201);
    expect((await pub('batch')).body.result).toMatchObject({ overall: 'down', groups: [{ name: '', items: [{ name: 'Batch jobs', state: 'down' }] }] });
    await t.call('POST', `/api/status-pages/post/${res.body.result._id}`, { cookie: cookies.get('admin'), body: { body: 'Batch is late' } });
    expect((await t.call('DELETE', `/api/servers/${otherServerId}`, { cookie: cookies.get('admin') })).status).toBe(200);
    expect((await pub('batch')).body.result).toMatchObject({ overall: 'up', groups: [] });
    expect((await t.call('GET', `/api/status-pages/${res.body.result._id}`, { cookie: cookies.get('admin') })).body.result.groups[0].items[0].name).toBeNull();
    const incidents = await t.count('status_incidents');
    expect((await t.call('DELETE', `/api/status-pages/${res.body.result._id}`, { cookie: cookies.get('admin') })).status).toBe(200);
    expect(await t.count('status_incidents')).toBe(incidents - 1);
    expect((await pub('batch')).status).toBe(404);
  });
});
