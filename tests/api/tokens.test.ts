import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * Personal API tokens (issue 13): made from a session, shown once, stored hashed, accepted as
 * `Authorization: Bearer` without the cookie and the cross-site header, scoped to the owner's
 * role or read-only, revocable, with a last-used time; their use is in the audit trail as the
 * person's, naming the token.
 */
describe.each(await backends())('personal API tokens on $name', (backend) => {
  let t: TestApp;
  let sys: { _id: string; cookie: string };
  let user: { _id: string; cookie: string };
  let serverId: string;

  /** A call with only the token: no cookie, no x-requested-with. */
  const bearer = async (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, payload: body !== undefined ? JSON.stringify(body) : undefined });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers };
  };
  const make = async (cookie: string, body: Record<string, unknown>) => t.call('POST', '/api/auth/tokens', { cookie, body });

  beforeAll(async () => {
    t = await startTestApp(backend);
    const s = await t.addUser({ role: 'sysadmin', username: 'tok-sys' });
    sys = { _id: s._id, cookie: await t.signIn(s.email, s.password) };
    const u = await t.addUser({ role: 'user', username: 'tok-user' });
    user = { _id: u._id, cookie: await t.signIn(u.email, u.password) };
    const created = await t.call('POST', '/api/servers', { cookie: sys.cookie, body: { hostname: 'tok-web', ipaddress: '10.93.0.1', operating_system: 'linux' } });
    serverId = created.body.result._id;
  });
  afterAll(async () => t.close());

  it('is shown once and stored only as a hash; acts as its owner without cookie or cross-site header; its use is recorded naming it', async () => {
    const res = await make(sys.cookie, { name: 'ci deploy' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const tok = res.body.result as { _id: string; token: string; prefix: string; scope: string; lastUsedAt: string | null };
    expect(tok).toMatchObject({ name: 'ci deploy', scope: 'role', lastUsedAt: null, revokedAt: null });
    expect(tok.token).toMatch(/^odt_[A-Za-z0-9_-]{43}$/);
    expect(tok.token.startsWith(tok.prefix)).toBe(true);
    const stored = JSON.stringify(await t.database.query('select * from personal_tokens'));
    expect(stored).not.toContain(tok.token);
    const listed = await t.call('GET', '/api/auth/tokens', { cookie: sys.cookie });
    expect(listed.body.result.data).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(tok.token);

    expect((await bearer(tok.token, 'GET', '/api/auth/whoami')).body.result).toMatchObject({ _id: sys._id, username: 'tok-sys', role: 'sysadmin' });
    const change = await bearer(tok.token, 'PATCH', `/api/servers/${serverId}`, { suppressAlarm: 'yes' });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    const rec = (await t.call('GET', `/api/command-history/${change.headers['x-opsdeck-record']}`, { cookie: sys.cookie })).body.result;
    expect(rec).toMatchObject({ origin: 'server', actorKind: 'token', userId: sys._id, username: 'tok-sys', role: 'sysadmin', actorKeyId: tok._id, actorLabel: 'ci deploy', source: 'api', outcome: 'ok', targets: [{ kind: 'server', id: serverId, name: 'tok-web' }] });
    const after = (await t.call('GET', '/api/auth/tokens', { cookie: sys.cookie })).body.result.data[0];
    expect(Date.now() - Date.parse(after.lastUsedAt)).toBeLessThan(60_000);
    // The cookie route still wants its header: only the token stands in for it.
    expect((await t.app.inject({ method: 'PATCH', url: `/api/servers/${serverId}`, headers: { cookie: sys.cookie, 'content-type': 'application/json' }, payload: '{"suppressAlarm":"no"}' })).statusCode).toBe(403);
  });

  it('has no more rights than its owner, and a read-only token changes nothing (refusals recorded)', async () => {
    const own = (await make(user.cookie, { name: 'mine' })).body.result.token as string;
    expect((await bearer(own, 'DELETE', `/api/servers/${serverId}`)).status).toBe(403);
    const ro = (await make(sys.cookie, { name: 'dashboards', scope: 'read' })).body.result as { _id: string; token: string };
    expect((await bearer(ro.token, 'GET', `/api/servers/${serverId}`)).status).toBe(200);
    expect((await bearer(ro.token, 'POST', '/api/servers/all', { pageSize: 5 })).body.result.count).toBe(1);
    const refused = await bearer(ro.token, 'PATCH', `/api/servers/${serverId}`, { suppressAlarm: 'no' });
    expect(refused).toMatchObject({ status: 403, body: { message: 'This API token is read-only: it cannot change anything' } });
    const rec = (await t.call('GET', `/api/command-history/${refused.headers['x-opsdeck-record']}`, { cookie: sys.cookie })).body.result;
    expect(rec).toMatchObject({ actorKind: 'token', actorLabel: 'dashboards', outcome: 'refused', status: 403 });
    expect((await t.call('GET', `/api/servers/${serverId}`, { cookie: sys.cookie })).body.result.suppressAlarm).toBe('yes');
    // A token cannot make tokens (they would outlive its revocation).
    expect((await bearer(own, 'POST', '/api/auth/tokens', { name: 'child' })).status).toBe(403);
  });

  it('no token writes a History record itself; a run through a write token is recorded by the server naming the token (issue 25 §3, §4)', async () => {
    const count = async () => Number((await t.database.query<{ n: number }>('select count(*)::int as n from command_history'))[0]!.n);
    const forged = { command: 'user.delete', commandLine: 'user.delete admin', source: 'palette', outcome: 'ok', durationMs: 3, runId: '0b7c9f0e-2d3a-4c1b-9e8f-7a6b5c4d3e2f' };
    const ro = (await make(sys.cookie, { name: 'wallboard', scope: 'read' })).body.result as { token: string };
    const rw = (await make(sys.cookie, { name: 'runner' })).body.result as { _id: string; token: string };
    const before = await count();
    for (const token of [ro.token, rw.token]) {
      const refused = await bearer(token, 'POST', '/api/command-history', forged);
      expect(refused.status).toBe(404);
      expect(refused.headers['x-opsdeck-record']).toBeUndefined();
    }
    expect(await count()).toBe(before);
    // The run's description rides on its own write; the record is the server's and names the token.
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/servers/${serverId}`,
      headers: { authorization: `Bearer ${rw.token}`, 'content-type': 'application/json', 'x-opsdeck-command': 'server.toggle-maintenance', 'x-opsdeck-source': 'api', 'x-opsdeck-run': forged.runId },
      payload: JSON.stringify({ suppressAlarm: 'yes' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const rec = (await t.call('GET', `/api/command-history/${res.headers['x-opsdeck-record']}`, { cookie: sys.cookie })).body.result;
    expect(rec).toMatchObject({ origin: 'server', command: 'server.toggle-maintenance', actorKind: 'token', actorKeyId: rw._id, actorLabel: 'runner', username: 'tok-sys', outcome: 'ok' });
  });

  it('is refused once revoked, or when its owner is suspended; names are unique among live tokens', async () => {
    const tok = (await make(user.cookie, { name: 'Nightly' })).body.result as { _id: string; token: string };
    expect(await make(user.cookie, { name: 'nightly' })).toMatchObject({ status: 409, body: { field: 'name' } });
    expect((await make(user.cookie, { name: '' })).body).toMatchObject({ statusCode: 400, field: 'name' });
    // Somebody else's token is not there for you.
    expect((await t.call('DELETE', `/api/auth/tokens/${tok._id}`, { cookie: sys.cookie })).status).toBe(404);
    const revoked = await t.call('DELETE', `/api/auth/tokens/${tok._id}`, { cookie: user.cookie });
    expect(revoked.body.result.revokedAt).toEqual(expect.any(String));
    expect((await t.call('DELETE', `/api/auth/tokens/${tok._id}`, { cookie: user.cookie })).body.result.revokedAt).toBe(revoked.body.result.revokedAt);
    expect(await bearer(tok.token, 'GET', '/api/auth/whoami')).toMatchObject({ status: 401, body: { message: expect.stringMatching(/not valid/) } });
    expect((await make(user.cookie, { name: 'nightly' })).status).toBe(201);

    const other = (await make(user.cookie, { name: 'soon suspended' })).body.result.token as string;
    const admin = await t.addUser({ role: 'admin', username: 'tok-admin' });
    const adminCookie = await t.signIn(admin.email, admin.password);
    expect((await t.call('PATCH', `/api/users/${user._id}`, { cookie: adminCookie, body: { status: 'suspended' } })).status).toBe(200);
    expect((await bearer(other, 'GET', '/api/auth/whoami')).status).toBe(401);
    expect((await bearer('odt_not-a-token', 'GET', '/api/auth/whoami')).status).toBe(401);
  });

  it('ends with a password reset, a role change or a suspension, as sessions do, and the answer says how many ended (issue 25 §4)', async () => {
    const admin = await t.addUser({ role: 'admin', username: 'tok-admin-2' });
    const adminCookie = await t.signIn(admin.email, admin.password);
    const person = async (username: string) => {
      const u = await t.addUser({ role: 'sysadmin', username });
      const cookie = await t.signIn(u.email, u.password);
      const token = (await make(cookie, { name: 'ci' })).body.result.token as string;
      expect((await bearer(token, 'GET', '/api/auth/whoami')).status).toBe(200);
      return { ...u, cookie, token };
    };
    const whoami = (cookie: string) => t.call('GET', '/api/auth/whoami', { cookie });

    // A password reset by an admin.
    const reset = await person('tok-reset');
    const res = await t.call('PATCH', `/api/users/${reset._id}`, { cookie: adminCookie, body: { password: 'new-pass-123' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.signedOut).toEqual({ reason: 'password', sessions: 1, tokens: 1 });
    expect(await bearer(reset.token, 'GET', '/api/auth/whoami')).toMatchObject({ status: 401, body: { message: expect.stringMatching(/not valid/) } });
    expect((await whoami(reset.cookie)).status).toBe(401);
    const listed = (await t.call('GET', '/api/auth/tokens', { cookie: await t.signIn(reset.email, 'new-pass-123') })).body.result.data;
    expect(listed).toMatchObject([{ name: 'ci', revokedAt: expect.any(String) }]);

    // An admin changing their own password ends their own tokens too.
    const own = (await make(adminCookie, { name: 'own' })).body.result.token as string;
    expect((await t.call('PATCH', `/api/users/${admin._id}`, { cookie: adminCookie, body: { password: 'admin-pass-2' } })).body.result.signedOut).toMatchObject({ reason: 'password', tokens: 1 });
    expect((await bearer(own, 'GET', '/api/auth/whoami')).status).toBe(401);
    const adminCookie2 = await t.signIn(admin.email, 'admin-pass-2');

    // Another role: a token made for the old role does not carry on under the new one.
    const demoted = await person('tok-demoted');
    const role = await t.call('PATCH', `/api/users/${demoted._id}`, { cookie: adminCookie2, body: { role: 'user' } });
    expect(role.body.result).toMatchObject({ role: 'user', signedOut: { reason: 'role', sessions: 1, tokens: 1 } });
    expect((await bearer(demoted.token, 'GET', '/api/auth/whoami')).status).toBe(401);
    expect((await whoami(demoted.cookie)).status).toBe(401);
    // The same role again changes nothing and ends nothing.
    const again = await person('tok-same-role');
    const same = await t.call('PATCH', `/api/users/${again._id}`, { cookie: adminCookie2, body: { role: 'sysadmin', phonenumber: '+1 2' } });
    expect(same.body.result.signedOut).toBeUndefined();
    expect((await bearer(again.token, 'GET', '/api/auth/whoami')).status).toBe(200);

    // A suspension: the token stays dead when the account is active again.
    const suspended = await person('tok-suspended');
    expect((await t.call('PATCH', `/api/users/${suspended._id}`, { cookie: adminCookie2, body: { status: 'suspended' } })).body.result.signedOut).toEqual({ reason: 'suspended', sessions: 1, tokens: 1 });
    expect((await t.call('PATCH', `/api/users/${suspended._id}`, { cookie: adminCookie2, body: { status: 'active' } })).body.result.signedOut).toBeUndefined();
    expect((await bearer(suspended.token, 'GET', '/api/auth/whoami')).status).toBe(401);
    expect(await t.count(`personal_tokens where user_id = '${suspended._id}' and revoked_at is null`)).toBe(0);
  });
});
