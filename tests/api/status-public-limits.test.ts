import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servers } from '../../server/db/schema';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * The public status view's short cache and per-address limit (issue 16 §3 leftovers,
 * server/status/public-cache.ts and public-limit.ts), through the real app on each database: a
 * view is built once per slug for the cache time and shared by every request meanwhile; every
 * change made through the status-pages routes shows on the next request; more than the limit of
 * requests from one address to /status/… or its JSON is a 429 with Retry-After, others unaffected.
 */

const CACHE_S = 2;
const LIMIT = 8;

describe.each(await backends())('public status cache and limit on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let serverId: string;
  let pageId: string;
  /** Each request from its own address unless one is given, so the limit stays out of the cache cases. */
  let octet = 0;
  const pub = async (slug: string, remoteAddress = `10.99.0.${++octet % 250}`) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/public/status/${slug}`, remoteAddress });
    return { status: res.statusCode, headers: res.headers, body: JSON.parse(res.body) };
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    t = await startTestApp(backend, { statusPages: { rateLimitPerMinute: LIMIT, cacheSeconds: CACHE_S } });
    const a = await t.addUser({ role: 'admin', username: 'public-limits-admin' });
    admin = await t.signIn(a.email, a.password);
    const [s] = await t.database.db.insert(servers).values({ hostname: 'cache-db', ipaddress: '10.30.0.1', operatingSystem: 'linux', state: 'up', isAgentConfigured: true }).returning();
    serverId = s!.id;
    const page = await t.call('POST', '/api/status-pages', { cookie: admin, body: { slug: 'cached', title: 'Cached', groups: [{ name: '', items: [{ kind: 'server', id: serverId, displayName: 'Database' }] }] } });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    pageId = page.body.result._id;
  });
  afterAll(async () => t.close());

  it('builds a view once per slug for the cache time: a burst shares one build, monitoring changes show after it', async () => {
    const first = await pub('cached');
    expect(first.status).toBe(200);
    expect(first.body.result.groups[0].items[0]).toMatchObject({ name: 'Database', state: 'up' });
    // What monitoring writes (not a status-page change): seen only once the kept view expires.
    await t.database.db.update(servers).set({ state: 'down' });
    const burst = await Promise.all(Array.from({ length: 12 }, () => pub('cached')));
    expect(new Set(burst.map((r) => r.status))).toEqual(new Set([200]));
    expect(new Set(burst.map((r) => r.body.result.generatedAt))).toEqual(new Set([first.body.result.generatedAt]));
    expect(burst[0]!.body.result.groups[0].items[0].state).toBe('up');
    await sleep(CACHE_S * 1000 + 100);
    const later = await pub('cached');
    expect(later.body.result.groups[0].items[0].state).toBe('down');
    expect(later.body.result.overall).toBe('down');
    expect(later.body.result.generatedAt).not.toBe(first.body.result.generatedAt);
    // A burst while nothing is kept: one build for all of them too.
    await sleep(CACHE_S * 1000 + 100);
    const cold = await Promise.all(Array.from({ length: 8 }, () => pub('cached')));
    expect(new Set(cold.map((r) => r.body.result.generatedAt)).size).toBe(1);
    await t.database.db.update(servers).set({ state: 'up' });
  });

  it('shows a post, a resolution, an edit, a rename and a delete on the next request, within the cache time', async () => {
    expect((await pub('cached')).body.result.incidents).toEqual([]);
    const post = await t.call('POST', `/api/status-pages/post/${pageId}`, { cookie: admin, body: { body: 'Database maintenance overran' } });
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    expect((await pub('cached')).body.result.incidents[0]).toMatchObject({ title: 'Database maintenance overran', resolvedAt: null });
    expect((await t.call('POST', `/api/status-pages/resolve/${pageId}`, { cookie: admin, body: {} })).status).toBe(200);
    expect((await pub('cached')).body.result.incidents[0].resolvedAt).not.toBeNull();
    expect((await t.call('PATCH', `/api/status-pages/${pageId}`, { cookie: admin, body: { title: 'Renamed' } })).status).toBe(200);
    expect((await pub('cached')).body.result.title).toBe('Renamed');
    // A slug asked for before it exists is kept as "no page" — until a page takes it.
    expect((await pub('moved')).status).toBe(404);
    expect((await t.call('PATCH', `/api/status-pages/${pageId}`, { cookie: admin, body: { slug: 'moved' } })).status).toBe(200);
    expect((await pub('cached')).status).toBe(404);
    expect((await pub('moved')).body.result.title).toBe('Renamed');
    const other = await t.call('POST', '/api/status-pages', { cookie: admin, body: { slug: 'cached', title: 'New page' } });
    expect(other.status).toBe(201);
    expect((await pub('cached')).body.result.title).toBe('New page');
    expect((await t.call('DELETE', `/api/status-pages/${other.body.result._id}`, { cookie: admin })).status).toBe(200);
    expect((await pub('cached')).status).toBe(404);
    expect((await t.call('PATCH', `/api/status-pages/${pageId}`, { cookie: admin, body: { slug: 'cached' } })).status).toBe(200);
  });

  it(`answers 429 with Retry-After after ${LIMIT} requests a minute from one address, to the page and its JSON; other addresses and the signed-in API are unaffected`, async () => {
    const address = '10.98.7.6';
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      // The page itself (the UI's index.html; 404 here, where the tests serve no UI), its JSON, and unknown slugs all count.
      const url = i % 3 === 0 ? '/status/cached' : i % 3 === 1 ? '/api/public/status/cached' : '/api/public/status/no-such-page';
      statuses.push((await t.app.inject({ method: 'GET', url, remoteAddress: address })).statusCode);
    }
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    for (const url of ['/api/public/status/cached', '/status/cached']) {
      const refused = await t.app.inject({ method: 'GET', url, remoteAddress: address });
      expect(refused.statusCode).toBe(429);
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expect(JSON.parse(refused.body).message).toBe(`Too many requests for status pages from your address. Try again in ${wait} s.`);
    }
    expect((await pub('cached', '10.98.7.7')).status).toBe(200);
    const signedIn = await t.app.inject({ method: 'POST', url: '/api/status-pages/all', remoteAddress: address, headers: { cookie: admin, 'x-requested-with': 'opsdeck', 'content-type': 'application/json' }, payload: '{}' });
    expect(signedIn.statusCode).toBe(200);
  });
});
