import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../server/db/schema';
import { backends, startTestApp, type TestApp } from './harness';

describe.each(await backends())('auth and sessions on $name', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(backend);
  });
  afterAll(async () => t.close());

  it('answers health without a session', async () => {
    const res = await t.call('GET', '/api/health');
    expect(res).toMatchObject({ status: 200, body: { status: 'ok', db: backend.name } });
  });

  it('signs in, knows who you are, and signs out', async () => {
    const u = await t.addUser({ role: 'sysadmin', email: 'Mixed.Case@Example.com' });
    const signin = await t.call('POST', '/api/auth/signin', { body: { email: 'mixed.case@example.com', password: u.password } });
    expect(signin.status).toBe(200);
    expect(signin.body.result).toEqual({ _id: u._id, username: expect.any(String), email: u.email, role: 'sysadmin' });
    const setCookie = String(signin.headers['set-cookie']);
    expect(setCookie).toMatch(/opsdeck_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = setCookie.split(';')[0]!;
    expect((await t.call('GET', '/api/auth/whoami', { cookie })).body.result._id).toBe(u._id);
    expect((await t.call('POST', '/api/auth/signout', { cookie })).status).toBe(200);
    expect((await t.call('GET', '/api/auth/whoami', { cookie })).status).toBe(401);
  });

  it('refuses a wrong password, an unknown email and a suspended account', async () => {
    const u = await t.addUser({ role: 'user' });
    const s = await t.addUser({ role: 'user', status: 'suspended' });
    expect(await t.call('POST', '/api/auth/signin', { body: { email: u.email, password: 'nope' } })).toMatchObject({ status: 401, body: { message: 'Invalid email or password' } });
    expect(await t.call('POST', '/api/auth/signin', { body: { email: 'ghost@example.com', password: 'nope' } })).toMatchObject({ status: 401, body: { message: 'Invalid email or password' } });
    expect(await t.call('POST', '/api/auth/signin', { body: { email: s.email, password: s.password } })).toMatchObject({ status: 401, body: { message: 'This account is suspended' } });
  });

  it('refuses an expired session and removes it', async () => {
    const u = await t.addUser({ role: 'user' });
    const cookie = await t.signIn(u.email, u.password);
    await t.database.db.update(sessions).set({ expiresAt: sql`now() - interval '1 second'` });
    expect((await t.call('GET', '/api/auth/whoami', { cookie })).status).toBe(401);
    expect(await t.count('sessions')).toBe(0);
  });

  it('ends the sessions of a user who is suspended', async () => {
    const admin = await t.addUser({ role: 'admin' });
    const u = await t.addUser({ role: 'user' });
    const adminCookie = await t.signIn(admin.email, admin.password);
    const cookie = await t.signIn(u.email, u.password);
    expect((await t.call('PATCH', `/api/users/${u._id}`, { cookie: adminCookie, body: { status: 'suspended' } })).status).toBe(200);
    expect((await t.call('GET', '/api/auth/whoami', { cookie })).status).toBe(401);
  });

  it('refuses cookie-authenticated writes without the x-requested-with header', async () => {
    const admin = await t.addUser({ role: 'admin' });
    const cookie = await t.signIn(admin.email, admin.password);
    const before = await t.count('users');
    const res = await t.call('POST', '/api/users', {
      cookie,
      headers: { 'x-requested-with': '' },
      body: { username: 'csrf', email: 'csrf@example.com', phonenumber: '1', password: 'x', role: 'admin' },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/Cross-site/);
    expect(await t.count('users')).toBe(before);
  });

  it('lets a person read and rename only their own account (auth/users)', async () => {
    const u = await t.addUser({ role: 'user' });
    const other = await t.addUser({ role: 'user' });
    const cookie = await t.signIn(u.email, u.password);
    expect((await t.call('GET', `/api/auth/users/${u._id}`, { cookie })).body.result).toMatchObject({ _id: u._id, email: u.email });
    expect((await t.call('PATCH', `/api/auth/users/${u._id}`, { cookie, body: { username: 'new-name' } })).body.result.username).toBe('new-name');
    expect((await t.call('GET', `/api/auth/users/${other._id}`, { cookie })).status).toBe(403);
    expect((await t.call('PATCH', `/api/auth/users/${other._id}`, { cookie, body: { username: 'x' } })).status).toBe(403);
    expect((await t.call('PATCH', `/api/auth/users/${u._id}`, { cookie, body: { email: 'x@y' } })).status).toBe(400);
  });

  it('rate-limits sign-in attempts', async () => {
    const limited = await startTestApp(backend, { signinRateLimit: 3 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.call('POST', '/api/auth/signin', { body: { email: 'a@b.c', password: 'x' } })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const res = await limited.call('POST', '/api/auth/signin', { body: { email: 'a@b.c', password: 'x' } });
      expect(res.body).toMatchObject({ statusCode: 429, message: expect.stringMatching(/Too many sign-in attempts/) });
    } finally {
      await limited.close();
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    expect(await t.call('GET', '/api/nothing-here')).toMatchObject({ status: 404, body: { statusCode: 404, message: expect.stringContaining('/api/nothing-here') } });
  });
});
