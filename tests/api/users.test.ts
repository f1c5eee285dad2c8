import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from './harness';

describe.each(await backends())('users and command history on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin', username: 'root-admin', email: 'root@example.com' });
    admin = await t.signIn(a.email, a.password);
  });
  afterAll(async () => t.close());

  const list = (body: unknown) => t.call('POST', '/api/users/all', { cookie: admin, body });

  it('creates a user (status active), returns it without the password, and lists it', async () => {
    const res = await t.call('POST', '/api/users', { cookie: admin, body: { username: 'ann', email: 'ann@example.com', phonenumber: '+1 555 0001', password: 'secret-ann', role: 'sysadmin' } });
    expect(res.status).toBe(201);
    expect(res.body.result).toEqual({ _id: expect.any(String), username: 'ann', email: 'ann@example.com', phonenumber: '+1 555 0001', role: 'sysadmin', status: 'active', avatarUrl: null, createdAt: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/secret-ann|password|scrypt/);
    const one = await t.call('GET', `/api/users/${res.body.result._id}`, { cookie: admin });
    expect(one.body.result).toEqual(res.body.result);
    const many = await t.call('GET', `/api/users?id=${res.body.result._id}&id=00000000-0000-4000-8000-000000000000`, { cookie: admin });
    expect(many.body.result).toEqual([res.body.result]);
    // The new user can sign in with that password.
    expect((await t.call('POST', '/api/auth/signin', { body: { email: 'ann@example.com', password: 'secret-ann' } })).status).toBe(200);
  });

  it('refuses a second user with the same email, whatever its case', async () => {
    const before = await t.count('users');
    const res = await t.call('POST', '/api/users', { cookie: admin, body: { username: 'x', email: 'ANN@example.com', phonenumber: '1', password: 'x', role: 'user' } });
    expect(res).toMatchObject({ status: 409, body: { message: 'A user with this email already exists', field: 'email' } });
    expect(await t.count('users')).toBe(before);
  });

  it('lists with paging, sorting, filters and search, counting every match', async () => {
    for (const [username, role] of [['bob', 'user'], ['bobby', 'user'], ['carol', 'sysadmin'], ['dave', 'admin']] as const) {
      await t.addUser({ role, username, email: `${username}@corp.example` });
    }
    const all = await list({ pageNumber: 1, pageSize: 25 });
    expect(all.body.result.data.map((u: { username: string }) => u.username)).toEqual(['root-admin', 'ann', 'bob', 'bobby', 'carol', 'dave']);
    expect(all.body.result.count).toBe(6);
    const page2 = await list({ pageNumber: 2, pageSize: 2, sort: { by: 'username', direction: 'desc' } });
    expect(page2.body.result).toEqual({ data: [expect.objectContaining({ username: 'carol' }), expect.objectContaining({ username: 'bobby' })], count: 6 });
    const bobs = await list({ pageNumber: 1, pageSize: 25, filter: { username: { contains: 'BOB' } } });
    expect(bobs.body.result.count).toBe(2);
    const roles = await list({ pageNumber: 1, pageSize: 25, filter: { role: { contains: 'sys' }, status: { in: ['active'] } } });
    expect(roles.body.result.data.map((u: { username: string }) => u.username)).toEqual(['ann', 'carol']);
    const search = await list({ pageNumber: 1, pageSize: 25, search: 'corp.example' });
    expect(search.body.result.count).toBe(4);
    const literal = await list({ pageNumber: 1, pageSize: 25, filter: { email: { contains: '%' } } });
    expect(literal.body.result.count).toBe(0);
  });

  it('names the field when a sort or filter is unknown', async () => {
    expect(await list({ pageNumber: 1, pageSize: 25, sort: { by: 'password', direction: 'asc' } })).toMatchObject({ status: 400, body: { field: 'password', message: expect.stringContaining('Unknown sort field "password"') } });
    expect(await list({ pageNumber: 1, pageSize: 25, filter: { phone: 'x' } })).toMatchObject({ status: 400, body: { field: 'phone', message: expect.stringContaining('Unknown filter field "phone"') } });
    expect(await list({ pageNumber: 1, pageSize: 25, filter: { status: { contains: 'act' } } })).toMatchObject({ status: 400, body: { field: 'status', message: expect.stringContaining('"contains" is not allowed on "status"') } });
  });

  it('updates and deletes, but never lets admins lock themselves out', async () => {
    const u = await t.addUser({ role: 'user' });
    expect((await t.call('PATCH', `/api/users/${u._id}`, { cookie: admin, body: { phonenumber: '+44 1', role: 'sysadmin' } })).body.result).toMatchObject({ phonenumber: '+44 1', role: 'sysadmin' });
    const me = (await t.call('GET', '/api/auth/whoami', { cookie: admin })).body.result._id;
    expect((await t.call('PATCH', `/api/users/${me}`, { cookie: admin, body: { role: 'user' } })).status).toBe(409);
    expect((await t.call('DELETE', `/api/users/${me}`, { cookie: admin })).status).toBe(409);
    expect(await t.call('DELETE', `/api/users/${u._id}`, { cookie: admin })).toMatchObject({ status: 200, body: { result: { _id: u._id } } });
    expect((await t.call('GET', `/api/users/${u._id}`, { cookie: admin })).status).toBe(404);
    expect((await t.call('DELETE', `/api/users/${u._id}`, { cookie: admin })).status).toBe(404);
  });

  it('keeps a shared, append-only command history filled in from the session, by the server', async () => {
    const u = await t.addUser({ role: 'user', username: 'operator' });
    const cookie = await t.signIn(u.email, u.password);
    const headers = (command: string, source: string) => ({ 'x-opsdeck-command': command, 'x-opsdeck-source': source, 'x-opsdeck-run': crypto.randomUUID() });
    const ran = await t.call('PATCH', `/api/auth/users/${u._id}`, { cookie, body: { username: 'operator' }, headers: headers('account.edit', 'palette') });
    expect(ran.status).toBe(200);
    const rec = (await t.call('GET', `/api/command-history/${ran.headers['x-opsdeck-record']}`, { cookie })).body.result;
    expect(rec).toMatchObject({ origin: 'server', userId: u._id, username: 'operator', role: 'user', command: 'account.edit', source: 'palette', outcome: 'ok', error: null });
    // Everyone signed in sees it, a colleague's failed run too; newest first by default.
    const gone = await t.call('DELETE', '/api/users/00000000-0000-4000-8000-00000000b0b0', { cookie: admin, headers: headers('user.delete', 'cmdline') });
    expect(gone.status).toBe(404);
    const seen = await t.call('POST', '/api/command-history/all', { cookie, body: { pageNumber: 1, pageSize: 10, filter: { command: ['account.edit', 'user.delete'] } } });
    expect(seen.body.result.data.map((h: { command: string; outcome: string }) => [h.command, h.outcome])).toEqual([
      ['user.delete', 'error'],
      ['account.edit', 'ok'],
    ]);
    const mine = await t.call('POST', '/api/command-history/all', { cookie, body: { pageNumber: 1, pageSize: 10, filter: { username: { eq: 'operator' }, outcome: ['ok'], command: 'account.edit' } } });
    expect(mine.body.result.count).toBe(1);
    // A log: it cannot be written, edited or deleted through the API.
    expect((await t.call('PATCH', `/api/command-history/${rec._id}`, { cookie: admin, body: { outcome: 'error' } })).status).toBe(404);
    expect((await t.call('DELETE', `/api/command-history/${rec._id}`, { cookie: admin })).status).toBe(404);
    expect((await t.call('POST', '/api/command-history', { cookie, body: { command: 'x.y', source: 'ui', outcome: 'ok', durationMs: 1 } })).status).toBe(404);
  });
});
