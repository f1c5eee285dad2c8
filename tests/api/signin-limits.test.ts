import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { testConfig, type Config } from '../../server/config';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * Sign-in limiting per account and address through the API (issue 11 part 6), behind TRUST_PROXY
 * or not. One backend: the limiter keeps nothing in the database (auth.test.ts runs the sign-in
 * itself on both), and every attempt costs a real scrypt check. The spraying and spread-out cases
 * are in server/auth/signin-limiter.test.ts.
 */
// PostgreSQL when it is there: a new database there is quicker than a PGlite initdb on a busy machine.
const backend = (await backends()).at(-1);

describe(`sign-in limits on ${backend!.name}`, () => {
  // Two failures for one account from one address, then 30 s, 60 s …
  const limits: Partial<Config> = { signinRateLimit: 2, signinBackoffS: { first: 30, max: 600 } };
  let t: TestApp;
  /** More apps on the same database, each with its own limiter and TRUST_PROXY. */
  const extra: FastifyInstance[] = [];
  const sibling = async (overrides: Partial<Config>) => {
    const app = await buildApp(testConfig(overrides), { database: t.database });
    await app.ready();
    extra.push(app);
    return app;
  };
  beforeAll(async () => {
    t = await startTestApp(backend!, { ...limits, trustProxy: ['10.9.9.9'] });
  });
  afterAll(async () => {
    for (const app of extra) await app.close();
    await t?.close();
  });

  /** A sign-in from `via` (default: the trusted proxy 10.9.9.9) carrying X-Forwarded-For `client`. */
  const signin = async (client: string, email: string, password: string, app: FastifyInstance = t.app, via = '10.9.9.9') => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      remoteAddress: via,
      headers: { 'content-type': 'application/json', 'x-requested-with': 'opsdeck', 'x-forwarded-for': client },
      payload: JSON.stringify({ email, password }),
    });
    return { status: res.statusCode, retryAfter: res.headers['retry-after'], message: (res.json() as { message?: string }).message };
  };

  it('counts only failures: many good sign-ins from one address are never limited', async () => {
    const u = await t.addUser({ role: 'user' });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await signin('198.51.100.1', u.email, u.password)).status);
    expect(statuses).toEqual(Array(6).fill(200));
  });

  it('an attacker failing against one account from one address locks out neither that account elsewhere nor other accounts there', async () => {
    const victim = await t.addUser({ role: 'admin' });
    const colleague = await t.addUser({ role: 'user' });
    const attacker = '203.0.113.66';
    const tries = [];
    for (let i = 0; i < 3; i++) tries.push((await signin(attacker, victim.email, `guess-${i}`)).status);
    expect(tries).toEqual([401, 401, 429]);
    // Refused before the password is looked at: even the right one waits, and is told how long.
    expect(await signin(attacker, victim.email, victim.password)).toMatchObject({ status: 429, retryAfter: '30', message: 'Too many sign-in attempts. Try again in 30 s.' });
    // The victim from their own address, and a colleague from the attacker's address, get in.
    expect((await signin('198.51.100.20', victim.email, victim.password)).status).toBe(200);
    expect((await signin(attacker, colleague.email, colleague.password)).status).toBe(200);
    // A wrong password elsewhere is an ordinary 401.
    expect((await signin('198.51.100.21', victim.email, 'typo')).status).toBe(401);
  });

  it('makes each further failure wait longer', async () => {
    const quick = await sibling({ ...limits, signinBackoffS: { first: 1, max: 60 }, trustProxy: ['10.9.9.9'] });
    const u = await t.addUser({ role: 'user' });
    const from = '203.0.113.77';
    for (let i = 0; i < 2; i++) expect((await signin(from, u.email, 'wrong', quick)).status).toBe(401);
    const waits: string[] = [];
    for (let step = 0; step < 2; step++) {
      const blocked = await signin(from, u.email, 'wrong', quick);
      expect(blocked.status).toBe(429);
      waits.push(String(blocked.retryAfter));
      await new Promise((r) => setTimeout(r, Number(blocked.retryAfter) * 1000 + 50));
      expect((await signin(from, u.email, 'wrong', quick)).status).toBe(401);
    }
    expect(waits).toEqual(['1', '2']);
    expect((await signin(from, u.email, 'wrong', quick)).retryAfter).toBe('4');
  });

  it('takes X-Forwarded-For only from the configured proxy', async () => {
    const u = await t.addUser({ role: 'user' });
    // 192.0.2.5 talks to the port directly and names a new address each time: still one client.
    const direct = [];
    for (let i = 0; i < 3; i++) direct.push((await signin(`192.0.2.${200 + i}`, u.email, 'wrong', t.app, '192.0.2.5')).status);
    expect(direct).toEqual([401, 401, 429]);
  });

  it('without TRUST_PROXY ignores X-Forwarded-For; with a hop count takes the hop before the proxy as the client', async () => {
    const plain = await sibling(limits);
    const hops = await sibling({ ...limits, trustProxy: 1 });
    // The proxy 10.0.0.1 forwards for three clients; the first two lists start with a spoofed entry.
    const chains = ['1.1.1.1, 198.51.100.31', '2.2.2.2, 198.51.100.32', '198.51.100.33'];
    const u = await t.addUser({ role: 'user' });
    const v = await t.addUser({ role: 'user' });
    const asPlain = [];
    for (const chain of chains) asPlain.push((await signin(chain, u.email, 'wrong', plain, '10.0.0.1')).status);
    expect(asPlain).toEqual([401, 401, 429]);
    const asHops = [];
    for (const chain of chains) asHops.push((await signin(chain, v.email, 'wrong', hops, '10.0.0.1')).status);
    expect(asHops).toEqual([401, 401, 401]);
    // The spoofed first entry does not make a new client: 198.51.100.31 is it.
    expect((await signin('7.7.7.7, 198.51.100.31', v.email, 'wrong', hops, '10.0.0.1')).status).toBe(401);
    expect((await signin('8.8.8.8, 198.51.100.31', v.email, 'wrong', hops, '10.0.0.1')).status).toBe(429);
  });
});
