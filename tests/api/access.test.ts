import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../server/contract/permissions';
import { backends, startTestApp, type TestApp } from './harness';

type Who = Role | 'anonymous';
const everyone: Who[] = ['admin', 'sysadmin', 'user', 'anonymous'];

interface Route {
  name: string;
  /** Builds the call for one caller; `victim` is a fresh user the call may change. */
  call: (ctx: { ownId: string; victim: string; n: number }) => { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; body?: unknown };
  /** Expected status per caller (docs/decisions.md, server/contract/permissions.ts). */
  expect: Record<Who, number>;
}

const readUsers = { admin: 200, sysadmin: 200, user: 403, anonymous: 401 };
const writeUsers = (ok: number) => ({ admin: ok, sysadmin: 403, user: 403, anonymous: 401 });
const signedIn = (ok: number) => ({ admin: ok, sysadmin: ok, user: ok, anonymous: 401 });

const routes: Route[] = [
  { name: 'GET health', call: () => ({ method: 'GET', url: '/api/health' }), expect: { admin: 200, sysadmin: 200, user: 200, anonymous: 200 } },
  { name: 'GET whoami', call: () => ({ method: 'GET', url: '/api/auth/whoami' }), expect: signedIn(200) },
  { name: 'GET own account', call: ({ ownId }) => ({ method: 'GET', url: `/api/auth/users/${ownId}` }), expect: signedIn(200) },
  { name: 'PATCH own account', call: ({ ownId, n }) => ({ method: 'PATCH', url: `/api/auth/users/${ownId}`, body: { username: `me-${n}` } }), expect: signedIn(200) },
  { name: 'GET another account', call: ({ victim }) => ({ method: 'GET', url: `/api/auth/users/${victim}` }), expect: { admin: 403, sysadmin: 403, user: 403, anonymous: 401 } },
  { name: 'list users', call: () => ({ method: 'POST', url: '/api/users/all', body: { pageNumber: 1, pageSize: 25 } }), expect: readUsers },
  { name: 'many users', call: ({ victim }) => ({ method: 'GET', url: `/api/users?id=${victim}` }), expect: readUsers },
  { name: 'one user', call: ({ victim }) => ({ method: 'GET', url: `/api/users/${victim}` }), expect: readUsers },
  {
    name: 'create user',
    call: ({ n }) => ({ method: 'POST', url: '/api/users', body: { username: `new${n}`, email: `new${n}@example.com`, phonenumber: '1', password: 'p', role: 'user' } }),
    expect: writeUsers(201),
  },
  { name: 'update user', call: ({ victim }) => ({ method: 'PATCH', url: `/api/users/${victim}`, body: { phonenumber: '+1 2' } }), expect: writeUsers(200) },
  { name: 'delete user', call: ({ victim }) => ({ method: 'DELETE', url: `/api/users/${victim}` }), expect: writeUsers(200) },
  { name: 'list history', call: () => ({ method: 'POST', url: '/api/command-history/all', body: { pageNumber: 1, pageSize: 25 } }), expect: signedIn(200) },
  { name: 'sign out', call: () => ({ method: 'POST', url: '/api/auth/signout' }), expect: { admin: 200, sysadmin: 200, user: 200, anonymous: 200 } },
];

describe.each(await backends())('access and bad input on $name', (backend) => {
  let t: TestApp;
  let admin: { cookie: string; id: string };
  let n = 0;
  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin' });
    admin = { cookie: await t.signIn(a.email, a.password), id: a._id };
  });
  afterAll(async () => t.close());

  it.each(routes.map((r) => [r.name, r] as const))('role matrix: %s', async (_name, route) => {
    for (const who of everyone) {
      let cookie: string | undefined;
      let ownId = '00000000-0000-4000-8000-000000000000';
      if (who !== 'anonymous') {
        const me = await t.addUser({ role: who });
        cookie = await t.signIn(me.email, me.password);
        ownId = me._id;
      }
      const victim = (await t.addUser({ role: 'user' }))._id;
      const { method, url, body } = route.call({ ownId, victim, n: ++n });
      const res = await t.call(method, url, { cookie, body });
      expect(res.status, `${route.name} as ${who}: ${JSON.stringify(res.body)}`).toBe(route.expect[who]);
      if (res.status >= 400) expect(res.body.message, `${route.name} as ${who}`).toEqual(expect.any(String));
    }
  });

  const long = 'x'.repeat(501);
  const badCalls: { name: string; method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: (victim: string) => string; bodies: unknown[]; raw?: string[] }[] = [
    {
      name: 'list users',
      method: 'POST',
      url: () => '/api/users/all',
      bodies: [
        { pageNumber: '1' },
        { pageNumber: 0 },
        { pageSize: 1000 },
        { sort: { by: 'username', direction: 'up' } },
        { sort: { by: 'nope', direction: 'asc' } },
        { filter: { username: { contains: long } } },
        { filter: { username: { like: 'a' } } },
        { filter: { createdAt: { between: ['not a date', 'x'] } } },
        { unknown: true },
        [],
      ],
      raw: ['{bad json', '"just a string"'],
    },
    {
      name: 'create user',
      method: 'POST',
      url: () => '/api/users',
      bodies: [
        {},
        { username: 'a', email: 'b@c', phonenumber: '1', password: 'p' },
        { username: 5, email: 'b@c', phonenumber: '1', password: 'p', role: 'user' },
        { username: long, email: 'b@c', phonenumber: '1', password: 'p', role: 'user' },
        { username: 'a', email: 'b@c', phonenumber: '1', password: 'p', role: 'root' },
        { username: 'a', email: 'b@c', phonenumber: '1', password: 'p', role: 'user', isAdmin: true },
        { username: '   ', email: 'b@c', phonenumber: '1', password: 'p', role: 'user' },
      ],
      raw: ['{', 'null'],
    },
    {
      name: 'update user',
      method: 'PATCH',
      url: (v) => `/api/users/${v}`,
      bodies: [{}, { role: 'root' }, { email: '' }, { username: long }, { passwordHash: 'x' }, { status: 'deleted' }],
      raw: ['{'],
    },
    { name: 'update unknown user', method: 'PATCH', url: () => '/api/users/not-a-uuid', bodies: [{ phonenumber: '1' }] },
    { name: 'delete unknown user', method: 'DELETE', url: () => '/api/users/00000000-0000-4000-8000-000000000000', bodies: [undefined] },
    { name: 'one unknown user', method: 'GET', url: () => '/api/users/not-a-uuid', bodies: [undefined] },
    { name: 'sign in', method: 'POST', url: () => '/api/auth/signin', bodies: [{}, { email: 5, password: 'x' }, { email: 'a@b', password: 'x', extra: 1 }], raw: ['x'] },
    { name: 'rename own account', method: 'PATCH', url: () => '/api/auth/users/OWN', bodies: [{}, { username: '' }, { username: long }, { username: 'a', role: 'admin' }] },
    { name: 'list history', method: 'POST', url: () => '/api/command-history/all', bodies: [{ filter: { userId: 'nope' } }, { filter: { createdAt: { between: [true, 1] } } }, { sort: { by: 'input', direction: 'asc' } }] },
  ];

  it.each(badCalls.map((c) => [c.name, c] as const))('bad input for %s: a 4xx with a message and nothing changed', async (_name, call) => {
    const victim = (await t.addUser({ role: 'user' }))._id;
    const snapshot = async () => ({
      users: await t.count('users'),
      sessions: await t.count('sessions'),
      // Refused calls are in the audit trail by design, as refused or failed: nothing as done.
      history: Number((await t.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM command_history WHERE outcome = 'ok'`))[0]!.n),
      victim: JSON.stringify(await t.database.query('SELECT * FROM users WHERE id = $1', [victim])),
    });
    const before = await snapshot();
    const url = call.url(victim).replace('OWN', admin.id);
    const attempts = [...call.bodies.map((body) => ({ body })), ...(call.raw ?? []).map((raw) => ({ raw }))];
    for (const attempt of attempts) {
      const res = await t.call(call.method, url, { cookie: admin.cookie, ...attempt });
      const label = `${call.name} with ${JSON.stringify(attempt).slice(0, 120)}`;
      expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, label).toBeLessThan(500);
      expect(res.body?.message, label).toEqual(expect.any(String));
    }
    expect(await snapshot()).toEqual(before);
  });
});
