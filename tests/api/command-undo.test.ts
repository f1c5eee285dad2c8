import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts } from '../../server/db/schema';
import { backends, startTestApp, type TestApp } from './harness';

/** A history record may say which run it undid (Ctrl+Z): only a successful run of the same person. */
describe.each(await backends())('undo records in the command history on $name', (backend) => {
  let t: TestApp;
  let ann: string;
  let bob: string;
  let alertId: string;
  /** A run of `command` as the registry sends it: one PATCH of the alert carrying the run's headers. */
  const run = (cookie: string, command: string, body: Record<string, unknown>, extra: Record<string, string> = {}) =>
    t.call('PATCH', `/api/alerts/${alertId}`, {
      cookie,
      body,
      headers: { 'x-opsdeck-command': command, 'x-opsdeck-source': extra.source ?? 'palette', 'x-opsdeck-run': crypto.randomUUID(), ...(extra.undoOf ? { 'x-opsdeck-undo-of': extra.undoOf } : {}) },
    });
  const recordOf = async (res: { headers: Record<string, unknown> }) => {
    const id = res.headers['x-opsdeck-record'] as string;
    const got = await t.call('GET', `/api/command-history/${id}`, { cookie: bob });
    return got.body.result as { _id: string; undoOf: string | null; source: string; outcome: string };
  };

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'user', username: 'ann-undo' });
    const b = await t.addUser({ role: 'user', username: 'bob-undo' });
    ann = await t.signIn(a.email, a.password);
    bob = await t.signIn(b.email, b.password);
    const [row] = await t.database.db.insert(alerts).values({ hostname: 'web-undo', instance: '10.9.9.9:9100', alertname: 'high_cpu_usage', type: 'resouce_alert', severity: 'warning' }).returning();
    alertId = row!.id;
  });
  afterAll(async () => t.close());

  it('records the undo of a run, and the run can be found from it', async () => {
    const ran = await recordOf(await run(ann, 'alert.resolve', { status: 'resolved', log: 'fixed' }));
    expect(ran.undoOf).toBeNull();
    const undoRes = await run(ann, 'alert.reopen', { status: 'firing', log: 'undo' }, { source: 'hotkey', undoOf: ran._id });
    expect(undoRes.status).toBe(200);
    const undo = await recordOf(undoRes);
    expect(undo).toMatchObject({ undoOf: ran._id, source: 'hotkey' });
    const found = await t.call('POST', '/api/command-history/all', { cookie: bob, body: { filter: { undoOf: ran._id } } });
    expect(found.body.result.data.map((h: { _id: string }) => h._id)).toEqual([undo._id]);
  });

  it('refuses an undo of nothing, of someone else’s run or of a failed run with a 400 naming the header, and changes nothing', async () => {
    const theirs = await recordOf(await run(bob, 'alert.resolve', { status: 'resolved', log: 'theirs' }));
    const failedRes = await run(ann, 'alert.resolve', { status: 'nonsense' });
    expect(failedRes.status).toBe(400);
    const failed = await recordOf(failedRes);
    expect(failed.outcome).not.toBe('ok');
    const before = await t.count('command_history');
    const status = async () => (await t.call('GET', `/api/alerts/${alertId}`, { cookie: bob })).body.result.status;
    const was = await status();
    for (const [undoOf, says] of [
      ['00000000-0000-4000-8000-000000000000', /no history record/],
      ['not-an-id', /undo-of/],
      [theirs._id, /your own runs/],
      [failed._id, /nothing to undo/],
    ] as const) {
      const res = await run(ann, 'alert.reopen', { status: 'firing', log: 'undo' }, { undoOf });
      expect(res.status, undoOf).toBe(400);
      expect(res.body).toMatchObject({ field: 'x-opsdeck-undo-of', message: expect.stringMatching(says) });
    }
    expect(await status()).toBe(was);
    // Refused before the change: each attempt is recorded as a refusal, never as a done undo.
    const undos = await t.call('POST', '/api/command-history/all', { cookie: bob, body: { filter: { undoOf: theirs._id } } });
    expect(undos.body.result.data.map((r: { outcome: string; status: number }) => [r.outcome, r.status])).toEqual([['error', 400]]);
    expect(await t.count('command_history')).toBe(before + 4);
  });
});
