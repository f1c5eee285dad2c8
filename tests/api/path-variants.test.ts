import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalisedUrl } from '../../server/http/normalise-path';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * Issue 25 §3: a path is normalised once, before any guard, limit or route
 * (server/http/normalise-path.ts). Percent-encoded, doubled-slash, dot-segment, upper-case and
 * absolute-form variants of a path meet the guards of the plain path — the cross-site header
 * on cookie writes, the public status limit — or are not routed at all.
 */

/** Forms of `/api/auth/signin` that reach the sign-in route once normalised. */
const SIGNIN_VARIANTS = ['/%61pi/auth/signin', '/%61%70%69/auth/signin', '//api/auth/signin', '/api//auth/signin', '/API/auth/signin', '/Api/auth/%73ignin', '/api/./auth/signin', '/x/../api/auth/signin', '/%%36%31pi/auth/signin'];
/** Forms that are not that path: never routed to it. */
const NOT_SIGNIN = ['/%2561pi/auth/signin', '/api/AUTH/signin', '/api%2Fauth/signin', '/api/auth/signin/'];

describe('normalisedUrl', () => {
  it('decodes unreserved characters, folds slashes and dot segments, lower-cases the api and status roots, keeps the query', () => {
    for (const v of SIGNIN_VARIANTS) expect(normalisedUrl(v), v).toBe('/api/auth/signin');
    expect(normalisedUrl('/%2561pi/auth/signin')).toBe('/%2561pi/auth/signin');
    expect(normalisedUrl('/api%2Fauth/signin')).toBe('/api%2Fauth/signin');
    expect(normalisedUrl('/STATUS/Our-Page')).toBe('/status/Our-Page');
    expect(normalisedUrl('/%41%50%49/servers/x?q=%61&b=//c')).toBe('/api/servers/x?q=%61&b=//c');
    expect(normalisedUrl('http://evil.example:80//api/health?x=1')).toBe('/api/health?x=1');
    expect(normalisedUrl('/')).toBe('/');
    expect(normalisedUrl('/a/b/..')).toBe('/a/');
    expect(normalisedUrl('/../..')).toBe('/');
    expect(normalisedUrl('/assets/index-AbC.js')).toBe('/assets/index-AbC.js');
  });
});

describe.each(await backends())('path variants on $name', (backend) => {
  const LIMIT = 4;
  let t: TestApp;
  let user: { email: string; password: string };
  let octet = 0;

  beforeAll(async () => {
    t = await startTestApp(backend, { statusPages: { rateLimitPerMinute: LIMIT, cacheSeconds: 0 } });
    const admin = await t.addUser({ role: 'admin', username: 'paths-admin' });
    user = await t.addUser({ role: 'user', username: 'paths-user' });
    const cookie = await t.signIn(admin.email, admin.password);
    const page = await t.call('POST', '/api/status-pages', { cookie, body: { slug: 'paths', title: 'Paths' } });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
  });
  afterAll(async () => t.close());

  const signin = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ email: user.email, password: user.password }) });

  it('a cookie write by an encoded, doubled-slash, dot-segment or upper-case path still needs x-requested-with', async () => {
    for (const url of SIGNIN_VARIANTS) {
      const bare = await signin(url);
      expect([bare.statusCode, JSON.parse(bare.body).message], url).toEqual([403, 'Cross-site request refused: the x-requested-with header is missing']);
      expect(bare.cookies.find((c) => c.name === 'opsdeck_session'), url).toBeUndefined();
      // With the header it is the sign-in itself: the same route, not a look-alike.
      const ok = await signin(url, { 'x-requested-with': 'opsdeck' });
      expect(ok.statusCode, url).toBe(200);
      expect(ok.cookies.find((c) => c.name === 'opsdeck_session'), url).toBeDefined();
    }
    for (const url of NOT_SIGNIN) {
      const res = await signin(url, { 'x-requested-with': 'opsdeck' });
      expect(res.statusCode, url).toBe(404);
      expect(res.cookies.find((c) => c.name === 'opsdeck_session'), url).toBeUndefined();
    }
  });

  it('the absolute form of a request target (RFC 9112) meets the same guard, over a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const body = JSON.stringify({ email: user.email, password: user.password });
    const raw = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect({ host: '127.0.0.1', port }, () => {
          socket.end(`POST ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
        });
        let answer = '';
        socket.on('data', (d) => (answer += d.toString()));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    for (const target of [`http://127.0.0.1:${port}/api/auth/signin`, `http://127.0.0.1:${port}/%61pi/auth/signin`]) {
      const answer = await raw(target);
      expect(answer.split('\r\n')[0], target).toBe('HTTP/1.1 403 Forbidden');
      expect(answer, target).not.toMatch(/set-cookie: opsdeck_session/i);
    }
  });

  it('every form of the public status paths counts against the one per-address limit', async () => {
    const variants = ['/%61pi/public/status/paths', '/api/public/%73tatus/paths', '//api//public/status/paths', '/API/public/status/paths', '/api/public/./status/paths', '/status/paths', '/STATUS/paths', '/%73tatus/paths', '//status/paths'];
    for (const variant of variants) {
      const remoteAddress = `10.77.0.${++octet}`;
      const answers: number[] = [];
      for (let i = 0; i < LIMIT; i++) answers.push((await t.app.inject({ method: 'GET', url: variant, remoteAddress })).statusCode);
      // The page's JSON answers its variants (the page itself has no UI here: 404); none is limited yet.
      expect(answers.every((s) => s !== 429), `${variant}: ${answers}`).toBe(true);
      // The limit of that address is spent: the plain path and the variant itself are refused now.
      const plain = await t.app.inject({ method: 'GET', url: '/api/public/status/paths', remoteAddress });
      expect([plain.statusCode, plain.headers['retry-after'] !== undefined], variant).toEqual([429, true]);
      expect((await t.app.inject({ method: 'GET', url: variant, remoteAddress })).statusCode, variant).toBe(429);
    }
    // The JSON variants were the page's JSON, not a look-alike route.
    const json = await t.app.inject({ method: 'GET', url: '/%61pi/public/status/paths', remoteAddress: '10.77.1.1' });
    expect([json.statusCode, JSON.parse(json.body).result.title]).toEqual([200, 'Paths']);
  });
});
