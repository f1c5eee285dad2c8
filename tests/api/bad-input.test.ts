import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../server/http/limits';
import { backends, startTestApp, type TestApp } from './harness';

/** Issue 11 §1: the malformed requests that were 500s are 4xx naming the field, and write nothing. */
describe.each(await backends())('bad input on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let user: string;
  // The audit trail records refused calls by design (issue 11 §2): what must not appear is a record of anything done.
  const okRecords = async () => Number((await t.database.query<{ n: number }>(`select count(*)::int as n from command_history where outcome = 'ok'`))[0]!.n);
  const rows = async () => Promise.all([t.count('users'), t.count('sessions'), okRecords(), t.count('servers')]);
  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    const u = await t.addUser({ role: 'user' });
    user = await t.signIn(u.email, u.password);
  });
  afterAll(async () => t.close());

  const lists = ['/api/users/all', '/api/command-history/all', '/api/servers/all', '/api/prometheus/get-services/all', '/api/alerts/all', '/api/notification-groups/all', '/api/alert-config/get-alert-config/all', '/api/checks/all'];
  const inherited = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

  it.each(lists)('%s: sort and filter fields that are Object.prototype members are unknown fields', async (url) => {
    for (const name of inherited) {
      const sort = await t.call('POST', url, { cookie: admin, body: { sort: { by: name, direction: 'asc' } } });
      expect([sort.status, sort.body.field, sort.body.message], `sort by ${name}`).toEqual([400, name, expect.stringMatching(new RegExp(`^Unknown sort field "${name}"`))]);
      // As JSON text: JSON.stringify would drop a "__proto__" key of an object literal.
      const filter = await t.call('POST', url, { cookie: admin, raw: `{"filter":{${JSON.stringify(name)}:"x"}}` });
      expect(filter.status, `filter on ${name}: ${JSON.stringify(filter.body)}`).toBe(400);
      expect(filter.body.message).toMatch(name === '__proto__' ? /not valid JSON/ : new RegExp(`^Unknown filter field "${name}"`));
    }
  });

  it('a NUL in any text field is a 400 naming it, even on the anonymous sign-in', async () => {
    const before = await rows();
    const signin = await t.call('POST', '/api/auth/signin', { body: { email: 'a\u0000@example.com', password: 'x' } });
    expect(signin).toMatchObject({ status: 400, body: { field: 'email', message: 'email: must not contain the NUL character (\\u0000)' } });
    const create = await t.call('POST', '/api/users', { cookie: admin, body: { username: 'nul\u0000', email: 'nul@example.com', phonenumber: '1', password: 'pw', role: 'user' } });
    expect(create).toMatchObject({ status: 400, body: { field: 'username' } });
    const search = await t.call('POST', '/api/servers/all', { cookie: user, body: { search: '\u0000' } });
    expect(search).toMatchObject({ status: 400, body: { field: 'search' } });
    const filter = await t.call('POST', '/api/alerts/all', { cookie: user, body: { filter: { hostname: { contains: 'a\u0000' } } } });
    expect(filter).toMatchObject({ status: 400, body: { field: 'filter.hostname' } });
    const labels = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'nul-labels', ipaddress: '10.77.0.1', operating_system: 'linux', labels: { ['k\u0000']: 'v' } } });
    expect(labels).toMatchObject({ status: 400, body: { field: expect.stringMatching(/^labels/) } });
    expect(await rows()).toEqual(before);
  });

  it(`bounds JSON nesting (${MAX_JSON_DEPTH} levels) and body size (1 MB) with a clear 400 and 413`, async () => {
    const before = await rows();
    const deep = `{"pageSize":5,"search":"x","filter":{"hostname":${'['.repeat(4500)}${']'.repeat(4500)}}}`;
    const res = await t.call('POST', '/api/servers/all', { cookie: user, raw: deep });
    expect(res).toMatchObject({ status: 400, body: { message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels` } });
    // Brackets inside strings do not count.
    const inString = await t.call('POST', '/api/servers/all', { cookie: user, body: { search: '['.repeat(200) } });
    expect(inString.status).toBe(200);
    const big = await t.call('POST', '/api/servers/all', { cookie: user, raw: JSON.stringify({ search: 'x'.repeat(1024 * 1024) }) });
    expect(big).toMatchObject({ status: 413, body: { message: 'The request body is too large (at most 1 MB)' } });
    const type = await t.call('POST', '/api/servers/all', { cookie: user, raw: 'search=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(type).toMatchObject({ status: 415, body: { message: 'Unsupported content-type "application/x-www-form-urlencoded": send application/json' } });
    const [users, sessions, history, servers] = await rows();
    expect([users, sessions, history, servers]).toEqual(before);
  });
});
