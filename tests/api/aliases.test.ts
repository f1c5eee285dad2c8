import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ALIASES } from '../../server/contract/aliases';
import { backends, startTestApp, type TestApp } from './harness';

/** Issue 13: per-person command aliases. Bad input is a 400 naming the field and writes nothing. */
describe.each(await backends())('command aliases on $name', (backend) => {
  let t: TestApp;
  let ann: string;
  let bob: string;
  let bobId: string;

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'user', username: 'ann-alias' });
    const b = await t.addUser({ role: 'admin', username: 'bob-alias' });
    bobId = b._id;
    ann = await t.signIn(a.email, a.password);
    bob = await t.signIn(b.email, b.password);
  });
  afterAll(async () => t.close());

  it('creates, replaces, lists only your own, and removes', async () => {
    const made = await t.call('PUT', '/api/aliases/Ack1h', { cookie: ann, body: { line: 'alert.snooze --for 1h' } });
    expect(made.status).toBe(201);
    expect(made.body.result).toMatchObject({ name: 'ack1h', line: 'alert.snooze --for 1h' });
    const replaced = await t.call('PUT', '/api/aliases/ack1h', { cookie: ann, body: { line: '  alert.snooze --for 2h ' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.result).toMatchObject({ _id: made.body.result._id, line: 'alert.snooze --for 2h' });
    await t.call('PUT', '/api/aliases/maint', { cookie: bob, body: { line: 'server.toggle-maintenance --mode on' } });
    expect((await t.call('GET', '/api/aliases', { cookie: ann })).body.result.map((a: { name: string }) => a.name)).toEqual(['ack1h']);
    expect((await t.call('GET', '/api/aliases', { cookie: bob })).body.result.map((a: { name: string }) => a.name)).toEqual(['maint']);
    // Another person's alias of the same name is theirs: removing yours leaves it.
    await t.call('PUT', '/api/aliases/maint', { cookie: ann, body: { line: 'server.toggle-maintenance --mode off' } });
    expect((await t.call('DELETE', '/api/aliases/MAINT', { cookie: ann })).status).toBe(200);
    expect((await t.call('DELETE', '/api/aliases/maint', { cookie: ann })).status).toBe(404);
    expect((await t.call('GET', '/api/aliases', { cookie: bob })).body.result).toHaveLength(1);
    expect((await t.call('GET', '/api/aliases')).status).toBe(401);
  });

  it('refuses bad names and lines with a 400 naming the field, and writes nothing', async () => {
    const before = await t.count('command_aliases');
    const cases: [string, unknown, string][] = [
      ['alert.resolve', { line: 'alert.resolve' }, 'name'],
      ['1h', { line: 'alert.snooze' }, 'name'],
      ['a'.repeat(41), { line: 'alert.snooze' }, 'name'],
      ['bad%20name', { line: 'alert.snooze' }, 'name'],
      ['ok', {}, 'line'],
      ['ok', { line: '' }, 'line'],
      ['ok', { line: 'snooze everything' }, 'line'],
      ['ok', { line: 'alert.snooze\nuser.delete admin' }, 'line'],
      ['ok', { line: `alert.note --note ${'x'.repeat(1000)}` }, 'line'],
      ['ok', { line: 'alert.snooze\u0000' }, 'line'],
      ['ok', { line: 42 }, 'line'],
      ['ok', { line: 'alert.snooze', extra: 1 }, 'extra'],
    ];
    for (const [name, body, field] of cases) {
      const res = await t.call('PUT', `/api/aliases/${name}`, { cookie: ann, body });
      expect(res.status, `${name} ${JSON.stringify(body).slice(0, 60)}`).toBe(400);
      expect(res.body.field, `${name} ${JSON.stringify(body).slice(0, 60)}`).toBe(field);
    }
    expect((await t.call('DELETE', '/api/aliases/no.such', { cookie: ann })).body).toMatchObject({ statusCode: 400, field: 'name' });
    expect(await t.count('command_aliases')).toBe(before);
  });

  it(`keeps at most ${MAX_ALIASES} aliases a person, with a 409 naming the field; replacing one still works`, async () => {
    await t.database.query(`insert into command_aliases (user_id, name, line) select $1, 'a' || g, 'alert.snooze' from generate_series(1, ${MAX_ALIASES - 1}) g`, [bobId]);
    const over = await t.call('PUT', '/api/aliases/onemore', { cookie: bob, body: { line: 'alert.snooze' } });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ field: 'name', message: expect.stringContaining(String(MAX_ALIASES)) });
    expect((await t.call('PUT', '/api/aliases/a1', { cookie: bob, body: { line: 'alert.resolve' } })).status).toBe(200);
    expect((await t.call('GET', '/api/aliases', { cookie: bob })).body.result).toHaveLength(MAX_ALIASES);
  });
});
