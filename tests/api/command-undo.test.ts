import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from './harness';

/** A history record may say which run it undid (Ctrl+Z): only a successful run of the same person. */
describe.each(await backends())('undo records in the command history on $name', (backend) => {
  let t: TestApp;
  let ann: string;
  let bob: string;
  const record = (cookie: string, body: Record<string, unknown>) => t.call('POST', '/api/command-history', { cookie, body: { source: 'palette', outcome: 'ok', durationMs: 3, ...body } });

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'user', username: 'ann-undo' });
    const b = await t.addUser({ role: 'user', username: 'bob-undo' });
    ann = await t.signIn(a.email, a.password);
    bob = await t.signIn(b.email, b.password);
  });
  afterAll(async () => t.close());

  it('records the undo of a run, and the run can be found from it', async () => {
    const ran = (await record(ann, { command: 'server.toggle-maintenance', input: { server: 'web-01', mode: 'on' } })).body.result;
    expect(ran.undoOf).toBeNull();
    const undo = await record(ann, { command: 'server.toggle-maintenance', input: { server: 'web-01', mode: 'off' }, source: 'hotkey', undoOf: ran._id });
    expect(undo.status).toBe(201);
    expect(undo.body.result).toMatchObject({ undoOf: ran._id, source: 'hotkey' });
    const found = await t.call('POST', '/api/command-history/all', { cookie: bob, body: { filter: { undoOf: ran._id } } });
    expect(found.body.result.data.map((h: { _id: string }) => h._id)).toEqual([undo.body.result._id]);
  });

  it('refuses an undo of nothing, of someone else’s run or of a failed run with a 400 naming undoOf, and writes nothing', async () => {
    const theirs = (await record(bob, { command: 'alert.resolve' })).body.result;
    const failed = (await record(ann, { command: 'alert.resolve', outcome: 'error', error: 'boom' })).body.result;
    const before = await t.count('command_history');
    for (const [undoOf, says] of [
      ['00000000-0000-4000-8000-000000000000', /no history record/],
      ['not-an-id', /undoOf/],
      [theirs._id, /your own runs/],
      [failed._id, /nothing to undo/],
    ] as const) {
      const res = await record(ann, { command: 'alert.reopen', undoOf });
      expect(res.status, undoOf).toBe(400);
      expect(res.body).toMatchObject({ field: 'undoOf', message: expect.stringMatching(says) });
    }
    expect(await t.count('command_history')).toBe(before);
  });
});
