import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryWorker } from '../../server/alerting/delivery';
import { AlertEvaluator } from '../../server/alerting/evaluator';
import { testConfig } from '../../server/config';
import { backends, startTestApp, type TestApp } from './harness';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
let octet = 0;

/** Issue 14 §1: acknowledge and release, over real HTTP on both databases. */
describe.each(await backends())('alert acknowledgement on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let ann: { _id: string; cookie: string };
  let bob: { _id: string; cookie: string };
  let groupId: string;

  /** An agent-configured server with its default rules (the CPU rule in a group) and one open CPU alert. */
  async function openAlert(status: 'firing' | 'snoozed' | 'resolved' = 'firing'): Promise<{ id: string; serverId: string }> {
    const n = ++octet;
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: `ack-${n}`, ipaddress: `10.71.0.${n}`, operating_system: 'linux', isAgentConfigured: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const serverId = res.body.result._id as string;
    const [rule] = await t.database.query<{ id: string }>(`update alert_rules set notification_group_id = $2 where server_id = $1 and name = 'high_cpu_usage' returning id`, [serverId, groupId]);
    const [alert] = await t.database.query<{ id: string }>(
      `insert into alerts (server_id, rule_id, hostname, instance, alertname, type, severity, status, resolved_at, notified_at)
       values ($1, $2, $3, $4, 'high_cpu_usage', 'resouce_alert', 'warning', $5, $6, now()) returning id`,
      [serverId, rule!.id, `ack-${n}`, `10.71.0.${n}`, status, status === 'resolved' ? new Date() : null],
    );
    await t.database.query(`insert into alert_events (alert_id, type) values ($1, 'firing')`, [alert!.id]);
    return { id: alert!.id, serverId };
  }
  const get = async (id: string, cookie = admin) => (await t.call('GET', `/api/alerts/${id}`, { cookie })).body.result;
  const outbox = (id: string) => t.database.query<{ transition: string; notification_group_id: string | null }>(`select transition, notification_group_id from alert_outbox where alert_id = $1 order by created_at`, [id]);

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    const u1 = await t.addUser({ role: 'user', username: 'ann' });
    ann = { _id: u1._id, cookie: await t.signIn(u1.email, u1.password) };
    const u2 = await t.addUser({ role: 'user', username: 'bob' });
    bob = { _id: u2._id, cookie: await t.signIn(u2.email, u2.password) };
    const g = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'ack-ops', emailList: ['ops@example.com'] } });
    groupId = g.body.result._id;
  });
  afterAll(async () => t.close());

  it('acknowledges an Active alert: it stays Active, shows owner, note and "until it resolves", and the timeline and outbox record it', async () => {
    const { id } = await openAlert();
    const res = await t.call('POST', `/api/alerts/${id}/ack`, { cookie: ann.cookie, body: { note: 'Looking at the **runaway** job' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const a = res.body.result;
    expect(a.status).toBe('firing');
    expect(a.acknowledgement).toEqual({ by: { _id: ann._id, username: 'ann' }, note: 'Looking at the **runaway** job', at: expect.any(String), until: null });
    expect(a.timeline.map((e: { type: string }) => e.type)).toEqual(['firing', 'acknowledged']);
    expect(a.timeline[1]).toMatchObject({ by: { username: 'ann' }, note: 'Acknowledged until it resolves.\n\nLooking at the **runaway** job' });
    // For channels with incidents of their own (PagerDuty, issue 15); email and Slack send nothing for it.
    expect(await outbox(id)).toEqual([{ transition: 'acknowledged', notification_group_id: groupId }]);
    // SPEC's status filter keeps its meaning: an acknowledged alert is Active.
    const active = await t.call('POST', '/api/alerts/all', { cookie: admin, body: { filter: { status: 'firing', acknowledged: true }, pageSize: 100 } });
    expect(active.body.result.data.map((x: { _id: string }) => x._id)).toContain(id);
    const unowned = await t.call('POST', '/api/alerts/all', { cookie: admin, body: { filter: { status: 'firing', acknowledged: false }, pageSize: 100 } });
    expect(unowned.body.result.data.map((x: { _id: string }) => x._id)).not.toContain(id);
  });

  it('another person takes over; the same person again changes note and expiry without a second outbox row; release clears it', async () => {
    const { id } = await openAlert();
    await t.call('POST', `/api/alerts/${id}/ack`, { cookie: ann.cookie, body: {} });
    const over = await t.call('POST', `/api/alerts/${id}/ack`, { cookie: bob.cookie, body: { forSeconds: 3600 } });
    expect(over.status).toBe(200);
    expect(over.body.result.acknowledgement).toMatchObject({ by: { username: 'bob' }, note: null });
    const until = Date.parse(over.body.result.acknowledgement.until);
    expect(until - Date.parse(over.body.result.acknowledgement.at)).toBe(3_600_000);
    expect(over.body.result.timeline.at(-1).note).toMatch(/^Took over from ann\. Acknowledged until \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
    await t.call('POST', `/api/alerts/${id}/ack`, { cookie: bob.cookie, body: { note: 'still on it' } });
    expect((await outbox(id)).map((o) => o.transition)).toEqual(['acknowledged', 'acknowledged']);
    const released = await t.call('POST', `/api/alerts/${id}/unack`, { cookie: ann.cookie, body: { note: 'bob is off shift' } });
    expect(released.status).toBe(200);
    expect(released.body.result.acknowledgement).toBeNull();
    expect(released.body.result.timeline.at(-1)).toMatchObject({ type: 'unacknowledged', by: { username: 'ann' }, note: "Released bob's acknowledgement.\n\nbob is off shift" });
    expect((await outbox(id)).length).toBe(2);
  });

  it('resolving clears the acknowledgement, so a reopened alert is nobody’s', async () => {
    const { id } = await openAlert();
    await t.call('POST', `/api/alerts/${id}/ack`, { cookie: ann.cookie, body: {} });
    expect((await t.call('PATCH', `/api/alerts/${id}`, { cookie: ann.cookie, body: { status: 'resolved', log: 'fixed' } })).body.result.acknowledgement).toBeNull();
    expect((await t.call('PATCH', `/api/alerts/${id}`, { cookie: ann.cookie, body: { status: 'firing', log: 'back' } })).body.result.acknowledgement).toBeNull();
  });

  it('refuses bad input with a 4xx naming the field and changes nothing', async () => {
    const { id } = await openAlert();
    const resolved = await openAlert('resolved');
    const before = await t.database.query('select * from alerts order by id');
    const events = await t.count('alert_events');
    const cases: [string, string, unknown, number, string | undefined][] = [
      [id, 'ack', { forSeconds: 30 }, 400, 'forSeconds'],
      [id, 'ack', { forSeconds: 'an hour' }, 400, 'forSeconds'],
      [id, 'ack', { forSeconds: 90.5 }, 400, 'forSeconds'],
      [id, 'ack', { note: 'x'.repeat(5001) }, 400, 'note'],
      [id, 'ack', { owner: 'bob' }, 400, 'owner'],
      [id, 'ack', { note: 42 }, 400, 'note'],
      [resolved.id, 'ack', {}, 409, 'status'],
      [id, 'unack', {}, 409, 'acknowledgement'],
      ['00000000-0000-4000-8000-000000000000', 'ack', {}, 404, undefined],
      ['not-an-id', 'unack', {}, 404, undefined],
    ];
    for (const [target, verb, body, status, field] of cases) {
      const res = await t.call('POST', `/api/alerts/${target}/${verb}`, { cookie: ann.cookie, body });
      expect(res.status, `${verb} ${JSON.stringify(body)}`).toBe(status);
      if (field) expect(res.body.field).toBe(field);
    }
    const raw = await t.call('POST', `/api/alerts/${id}/ack`, { cookie: ann.cookie, raw: '{"note":' });
    expect(raw.status).toBe(400);
    expect(await t.database.query('select * from alerts order by id')).toEqual(before);
    expect(await t.count('alert_events')).toBe(events);
    // Signed out: 401; every role may acknowledge (alerts.triage).
    expect((await t.call('POST', `/api/alerts/${id}/ack`, { body: {} })).status).toBe(401);
  });

  it('an acknowledgement for a while ends by itself on the evaluator’s tick, with an event', async () => {
    const { id } = await openAlert();
    await t.call('POST', `/api/alerts/${id}/ack`, { cookie: ann.cookie, body: { forSeconds: 600 } });
    const until = Date.parse((await get(id)).acknowledgement.until);
    let clock = until - 1000;
    const evaluator = new AlertEvaluator(t.database, { enabled: false, evalIntervalS: 15, autoDefaults: false, staleAfterS: 60 }, quiet, () => clock);
    expect((await evaluator.tick())!.ackExpired).toEqual([]);
    clock = until;
    expect((await evaluator.tick())!.ackExpired).toEqual([id]);
    await evaluator.stop();
    const after = await get(id);
    expect(after.acknowledgement).toBeNull();
    expect(after.status).toBe('firing');
    expect(after.timeline.at(-1)).toMatchObject({ type: 'unacknowledged', by: null, note: "ann's acknowledgement ran out." });
  });

  it('an acknowledged snoozed alert is not re-sent when its snooze ends; an unowned one is', async () => {
    const owned = await openAlert('snoozed');
    const free = await openAlert('snoozed');
    const end = Date.now() + 60_000;
    await t.database.query(`update alerts set snoozed_until = $2 where id = any($1::uuid[])`, [[owned.id, free.id], new Date(end)]);
    await t.call('POST', `/api/alerts/${owned.id}/ack`, { cookie: ann.cookie, body: {} });
    const clock = end;
    const evaluator = new AlertEvaluator(t.database, { enabled: false, evalIntervalS: 15, autoDefaults: false, staleAfterS: 60 }, quiet, () => clock);
    const r = await evaluator.tick();
    await evaluator.stop();
    expect(r!.unsnoozed.sort()).toEqual([owned.id, free.id].sort());
    expect((await outbox(owned.id)).map((o) => o.transition)).toEqual(['acknowledged']);
    expect((await outbox(free.id)).map((o) => o.transition)).toEqual(['firing']);
  });

  it('the delivery worker sends no email or Slack message for an acknowledgement and logs nothing', async () => {
    const { id } = await openAlert();
    await t.call('POST', `/api/alerts/${id}/ack`, { cookie: ann.cookie, body: {} });
    // An SMTP URL nobody answers: an attempt would be logged as failed.
    const worker = new DeliveryWorker(t.database, { ...testConfig().delivery, smtpUrl: 'smtp://127.0.0.1:9', slackBotToken: 'x' }, quiet);
    await worker.deliver();
    await worker.stop();
    expect(await t.database.query(`select processed_at is not null as done from alert_outbox where alert_id = $1`, [id])).toEqual([{ done: true }]);
    expect(await t.database.query(`select * from alert_deliveries where alert_id = $1`, [id])).toEqual([]);
  });
});
