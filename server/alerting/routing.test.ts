import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from '../../tests/api/harness';
import type { DeliverySettings } from '../config';
import { testConfig } from '../config';
import { DeliveryWorker } from './delivery';
import { AlertEvaluator } from './evaluator';
import { startSmtpSink, type SinkMail as Mail } from '../../tests/api/smtp-sink';
import { recordTransitions } from './lifecycle';
import type { Db } from '../db/client';

/**
 * Issue 14 routing end to end on each database: the real evaluator and delivery worker (with a
 * clock the test moves, so minutes pass in milliseconds), the real API for groups, silences,
 * windows and acknowledgements, and a real SMTP server that must see exactly the expected
 * messages: acknowledgement stops escalation and repeats; a silence stops sends and ends on
 * time; a window mutes and ends; a host down is one message; flapping is one message.
 */

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let octet = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => sink.close());

describe.each(await backends())('alert routing on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let ann: { _id: string; email: string; cookie: string };
  /** The test's clock (ms), near real time so API writes (silences, acknowledgements) line up. */
  let T0 = 0;
  let clock = 0;
  let evaluator: AlertEvaluator;
  let worker: DeliveryWorker;
  const mails: Mail[] = [];
  const at = (seconds: number) => (clock = T0 + seconds * 1000);
  const q = <T = Record<string, any>>(text: string, params?: unknown[]) => t.database.query<T>(text, params);
  const settings = (): DeliverySettings => ({ ...testConfig().delivery, smtpUrl: sink.url, mailFrom: 'Opsdeck <alerts@opsdeck.test>', publicUrl: 'https://opsdeck.test' });

  /** What a scrape does, then a tick and a delivery pass; returns the messages sent meanwhile. */
  async function step(seconds: number): Promise<Mail[]> {
    at(seconds);
    await q(`update servers set last_scraped_at = $1 where state = 'up'`, [new Date(clock)]);
    await evaluator.tick();
    const before = sink.mails.length;
    await worker.deliver();
    const sent = sink.mails.slice(before);
    mails.push(...sent);
    return sent;
  }
  const subjects = (list: Mail[]) => list.map((m) => `${m.subject} -> ${[...m.to].sort().join(',')}`);

  async function group(name: string, body: Record<string, unknown> = {}) {
    const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `${name}-${++octet}`, emailList: [`${name}@example.com`], ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result._id as string;
  }
  /** An up, agent-configured Linux server; its CPU rule waits 60 s and notifies `groupId`. */
  async function server(groupId: string | null, fields: Record<string, unknown> = {}) {
    const n = ++octet;
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: `route-${n}`, ipaddress: `10.72.${Math.floor(n / 250)}.${(n % 250) + 1}`, operating_system: 'linux', isAgentConfigured: true, ...fields } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.result._id as string;
    await q(`update servers set state = 'up', cpu_usage = 10, memory_usage = 10, disk_usage = 10, last_scraped_at = $2 where id = $1`, [id, new Date(clock)]);
    await q(`update alert_rules set time_limit = 60, notification_group_id = $2 where server_id = $1 and name in ('high_cpu_usage', 'instance_down')`, [id, groupId]);
    return { id, hostname: `route-${n}` };
  }
  const cpu = (id: string, value: number) => q(`update servers set cpu_usage = $2 where id = $1`, [id, value]);
  const alertOf = async (serverId: string, name = 'high_cpu_usage') =>
    (await q<{ id: string; status: string; mute: string | null; mute_label: string | null }>(`select id, status, mute, mute_label from alerts where server_id = $1 and alertname = $2 order by created_at desc limit 1`, [serverId, name]))[0];
  const notes = async (alertId: string) => (await q<{ note: string }>(`select note from alert_events where alert_id = $1 and type = 'playbook_action' order by at, note`, [alertId])).map((e) => e.note);

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin', username: 'route-admin' });
    admin = await t.signIn(a.email, a.password);
    const u = await t.addUser({ role: 'user', username: 'route-ann', email: 'ann@example.com' });
    ann = { _id: u._id, email: u.email, cookie: await t.signIn(u.email, u.password) };
  });
  afterAll(async () => {
    await evaluator?.stop();
    await worker?.stop();
    await t.close();
  });
  beforeEach(async () => {
    await evaluator?.stop();
    await worker?.stop();
    // Each test starts from an empty fleet and an empty outbox, so set-wise ticks see only its own.
    await q('delete from servers');
    await q('delete from silences');
    await q('delete from maintenance_windows');
    T0 = Math.floor(Date.now() / 60_000) * 60_000;
    clock = T0;
    evaluator = new AlertEvaluator(t.database, { enabled: false, evalIntervalS: 15, autoDefaults: false, staleAfterS: 60 }, quiet, () => clock);
    worker = new DeliveryWorker(t.database, settings(), quiet, () => clock);
    mails.length = 0;
  });

  it('repeats while firing and escalates while unacknowledged; an acknowledgement stops both and its owner is reminded later', async () => {
    const dba = await group('dba');
    const ops = await group('ops', { repeatIntervalSeconds: 600, ackReminderSeconds: 3600, escalationSteps: [{ afterSeconds: 900, groupId: dba, userIds: [ann._id] }] });
    const s = await server(ops);
    await cpu(s.id, 95);
    expect(await step(0)).toEqual([]);
    expect(subjects(await step(60))).toEqual([`[FIRING] high_cpu_usage on ${s.hostname} (warning) -> ops@example.com`]);
    expect(await step(300)).toEqual([]);
    expect(subjects(await step(660))).toEqual([`[STILL FIRING] high_cpu_usage on ${s.hostname} (warning) -> ops@example.com`]);
    // 900 s after the first notification: step 1 (the dba group and ann), and no repeat yet.
    expect(subjects(await step(960))).toEqual([`[ESCALATED] high_cpu_usage on ${s.hostname} (warning) -> ann@example.com,dba@example.com`]);
    const escalated = mails.at(-1)!;
    expect(escalated.text).toContain('Unacknowledged for 15m: escalation step 1 of 1.');
    const alert = (await alertOf(s.id))!;
    expect(await notes(alert.id)).toContain('Email sent to dba@example.com, ann@example.com (escalation step 1).');

    // ann acknowledges (real HTTP): no repeat at 1260, none later.
    const ack = await t.call('POST', `/api/alerts/${alert.id}/ack`, { cookie: ann.cookie, body: { note: 'mine' } });
    expect(ack.status).toBe(200);
    for (const s2 of [1260, 1860, 2460]) expect(await step(s2)).toEqual([]);
    // An hour after the acknowledgement (made at real time ~T0), ann is reminded, once per hour.
    const ackAt = Date.parse(ack.body.result.acknowledgement.at);
    const remindAt = (ackAt - T0) / 1000 + 3600;
    expect(subjects(await step(remindAt + 1))).toEqual([`[ACK REMINDER] high_cpu_usage on ${s.hostname} -> ann@example.com`]);
    expect(await step(remindAt + 1800)).toEqual([]);
    expect(subjects(await step(remindAt + 3601))).toEqual([`[ACK REMINDER] high_cpu_usage on ${s.hostname} -> ann@example.com`]);

    // Released: repeats resume; resolving sends the resolution to the group.
    await t.call('POST', `/api/alerts/${alert.id}/unack`, { cookie: ann.cookie, body: {} });
    expect(subjects(await step(remindAt + 3700))).toEqual([`[STILL FIRING] high_cpu_usage on ${s.hostname} (warning) -> ops@example.com`]);
    await cpu(s.id, 20);
    expect(subjects(await step(remindAt + 3760))).toEqual([`[RESOLVED] high_cpu_usage on ${s.hostname} -> ops@example.com`]);
    expect(await step(remindAt + 9000)).toEqual([]);
  });

  it('a silence stops sends and ends on time: its alert says "Silenced by …", notifies when it ends, and one that resolves meanwhile sends nothing', async () => {
    const ops = await group('ops');
    const a = await server(ops);
    const b = await server(ops);
    const res = await t.call('POST', '/api/silences', {
      cookie: ann.cookie,
      body: { matchers: [{ name: 'hostname', op: '=~', value: `${a.hostname}|${b.hostname}` }, { name: 'alertname', op: '=', value: 'high_cpu_usage' }], endsAt: new Date(T0 + 900_000).toISOString(), comment: 'Load test tonight' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.result).toMatchObject({ state: 'active', createdBy: { username: 'route-ann' } });
    await cpu(a.id, 95);
    await cpu(b.id, 95);
    await step(0);
    expect(await step(60)).toEqual([]);
    const silenced = (await alertOf(a.id))!;
    expect(silenced).toMatchObject({ status: 'firing', mute: 'silenced', mute_label: 'Silenced by route-ann' });
    const api = (await t.call('GET', `/api/alerts/${silenced.id}`, { cookie: admin })).body.result;
    expect(api.mute).toEqual({ reason: 'silenced', label: 'Silenced by route-ann', ref: res.body.result._id });
    expect(api.timeline.map((e: { type: string }) => e.type)).toEqual(['firing', 'playbook_action']);
    expect(api.timeline[1].note).toMatch(/^Silenced by route-ann until .* \(“Load test tonight”\): nobody is notified\.$/);
    // b recovers inside the silence: nothing about it, ever.
    await cpu(b.id, 20);
    expect(await step(300)).toEqual([]);
    expect(await step(899)).toEqual([]);
    // The silence ends at 900 s: a's firing message goes out at the first tick after it.
    expect(subjects(await step(900))).toEqual([`[FIRING] high_cpu_usage on ${a.hostname} (warning) -> ops@example.com`]);
    expect((await alertOf(a.id))!.mute).toBeNull();
    expect(await notes(silenced.id)).toContain('No longer silenced (the silence ended or no longer matches). Notifying now if it still fires.');
    await cpu(a.id, 20);
    expect(subjects(await step(960))).toEqual([`[RESOLVED] high_cpu_usage on ${a.hostname} -> ops@example.com`]);
    expect(mails).toHaveLength(2);
  });

  it('a silence or window that starts over alerts already sent mutes them (repeats stop) and leaves the others alone', async () => {
    const ops = await group('ops', { repeatIntervalSeconds: 600 });
    const a = await server(ops);
    const b = await server(ops);
    const c = await server(ops);
    for (const s of [a, b, c]) await cpu(s.id, 95);
    await step(0);
    expect(subjects(await step(60)).sort()).toEqual([a, b, c].map((s) => `[FIRING] high_cpu_usage on ${s.hostname} (warning) -> ops@example.com`).sort());
    // A silence for a (made now, in force from the next look), a window for b from 300 s.
    const silence = await t.call('POST', '/api/silences', { cookie: admin, body: { matchers: [{ name: 'hostname', op: '=', value: a.hostname }], durationSeconds: 7200, comment: 'quiet' } });
    expect(silence.status, JSON.stringify(silence.body)).toBe(201);
    const window = await t.call('POST', '/api/maintenance-windows', { cookie: admin, body: { name: 'Later', serverIds: [b.id], startsAt: new Date(T0 + 300_000).toISOString(), endsAt: new Date(T0 + 3_600_000).toISOString() } });
    expect(window.status, JSON.stringify(window.body)).toBe(201);
    await step(120);
    expect((await alertOf(a.id))!).toMatchObject({ mute: 'silenced', mute_label: expect.stringMatching(/^Silenced by /) });
    expect((await alertOf(b.id))!.mute).toBeNull();
    await step(300);
    expect((await alertOf(b.id))!).toMatchObject({ mute: 'maintenance', mute_label: 'In maintenance: Later' });
    expect((await alertOf(c.id))!.mute).toBeNull();
    // At 660 s only c repeats.
    expect(subjects(await step(660))).toEqual([`[STILL FIRING] high_cpu_usage on ${c.hostname} (warning) -> ops@example.com`]);
  });

  it('expiring a silence by hand ends it at once', async () => {
    const ops = await group('ops');
    const a = await server(ops);
    const res = await t.call('POST', '/api/silences', { cookie: admin, body: { matchers: [{ name: 'hostname', op: '=', value: a.hostname }], durationSeconds: 7200, comment: 'x' } });
    await cpu(a.id, 95);
    await step(0);
    expect(await step(60)).toEqual([]);
    const expired = await t.call('POST', `/api/silences/${res.body.result._id}/expire`, { cookie: admin });
    expect(expired.body.result.state).toBe('expired');
    expect(subjects(await step(75))).toEqual([`[FIRING] high_cpu_usage on ${a.hostname} (warning) -> ops@example.com`]);
  });

  it('a maintenance window mutes its servers’ alerts ("In maintenance: …") and they notify when it ends', async () => {
    const ops = await group('ops');
    const a = await server(ops);
    const other = await server(ops);
    const res = await t.call('POST', '/api/maintenance-windows', {
      cookie: admin,
      body: { name: 'Patch night', serverIds: [a.id], startsAt: new Date(T0).toISOString(), endsAt: new Date(T0 + 900_000).toISOString(), timezone: 'Europe/Berlin' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await cpu(a.id, 95);
    await cpu(other.id, 95);
    await step(0);
    // Only the other server's alert is sent.
    expect(subjects(await step(60))).toEqual([`[FIRING] high_cpu_usage on ${other.hostname} (warning) -> ops@example.com`]);
    expect((await alertOf(a.id))!).toMatchObject({ status: 'firing', mute: 'maintenance', mute_label: 'In maintenance: Patch night' });
    expect(await step(899)).toEqual([]);
    expect(subjects(await step(900))).toEqual([`[FIRING] high_cpu_usage on ${a.hostname} (warning) -> ops@example.com`]);
    expect((await alertOf(a.id))!.mute).toBeNull();
  });

  it('a recurring window by label mutes during each occurrence only', async () => {
    const ops = await group('ops');
    const a = await server(ops, { labels: { env: 'staging' } });
    // Every day, from 10 minutes before T0 for 20 minutes.
    const res = await t.call('POST', '/api/maintenance-windows', {
      cookie: admin,
      body: { name: 'Nightly', matchers: [{ name: 'label.env', op: '=', value: 'staging' }], startsAt: new Date(T0 - 86_400_000 - 600_000).toISOString(), endsAt: new Date(T0 - 86_400_000 + 600_000).toISOString(), rrule: 'FREQ=DAILY' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.result).toMatchObject({ state: 'active', next: { start: new Date(T0 - 600_000).toISOString(), end: new Date(T0 + 600_000).toISOString() } });
    await cpu(a.id, 95);
    await step(0);
    expect(await step(60)).toEqual([]);
    expect((await alertOf(a.id))!.mute_label).toBe('In maintenance: Nightly');
    expect(subjects(await step(600))).toEqual([`[FIRING] high_cpu_usage on ${a.hostname} (warning) -> ops@example.com`]);
    await cpu(a.id, 20);
    await step(700);
    // The next day's occurrence mutes a new alert again.
    await cpu(a.id, 95);
    await step(86_400 - 300);
    expect(await step(86_400 - 240)).toEqual([]);
    expect((await alertOf(a.id))!).toMatchObject({ status: 'firing', mute: 'maintenance' });
  });

  it('host down is one message: alerts opening while instance_down fires are suppressed, and the recovery lists what recovered and what still fires', async () => {
    const ops = await group('ops');
    const s = await server(ops);
    await q(`update servers set state = 'down' where id = $1`, [s.id]);
    await step(0);
    expect(subjects(await step(60))).toEqual([`[FIRING] instance_down on ${s.hostname} (critical) -> ops@example.com`]);
    const down = (await alertOf(s.id, 'instance_down'))!;
    // Two more alerts open for the host while it is down (what a website check or a received
    // Alertmanager alert does: open an alert and hand its firing to the router). The evaluator
    // leaves them open: a down host's figures and services say nothing.
    const opened: string[] = [];
    for (const [name, subject] of [['high_memory_usage', ''], ['service_down', 'nginx']] as const) {
      const [row] = await q<{ id: string }>(
        `insert into alerts (server_id, rule_id, subject, hostname, instance, alertname, type, severity, status, created_at)
         select $1, r.id, $4, $2, '10.0.0.1', $3, r.type, r.severity, 'firing', $5 from alert_rules r where r.server_id = $1 and r.name = $3 returning id`,
        [s.id, s.hostname, name, subject, new Date(clock)],
      );
      await t.database.db.transaction((tx) => recordTransitions(tx as unknown as Db, new Date(clock), [{ alertId: row!.id, type: 'firing', note: null, notify: true, groupId: ops }]));
      opened.push(row!.id);
    }
    expect(await step(90)).toEqual([]);
    const suppressed = await t.call('GET', `/api/alerts/${opened[0]}`, { cookie: admin });
    expect(suppressed.body.result.mute).toEqual({ reason: 'host_down', label: 'Suppressed: host down', ref: down.id });
    // One recovers while the host is still down.
    await q(`update alerts set status = 'resolved', resolved_at = $2 where id = $1`, [opened[1], new Date(clock)]);
    expect(await step(120)).toEqual([]);
    // The host answers again: one message, the instance_down resolution with both lists.
    await q(`update servers set state = 'up', memory_usage = 95 where id = $1`, [s.id]);
    const recovery = await step(135);
    expect(subjects(recovery)).toEqual([`[RESOLVED] instance_down on ${s.hostname} -> ops@example.com`]);
    expect(recovery[0]!.text).toContain('While the host was down (these were not sent on their own):\nRecovered:\n  - service_down (nginx)\nStill firing:\n  - high_memory_usage');
    expect(await step(150)).toEqual([]);
    expect((await t.call('GET', `/api/alerts/${opened[0]}`, { cookie: admin })).body.result).toMatchObject({ mute: null, notifiedAt: expect.any(String) });
  });

  it('a rule with host-down suppression off notifies beside the instance_down alert', async () => {
    const ops = await group('ops');
    const s = await server(ops);
    await q(`update servers set state = 'down' where id = $1`, [s.id]);
    await step(0);
    await step(60);
    const [rule] = await q<{ id: string }>(`update alert_rules set suppress_on_host_down = false where server_id = $1 and name = 'high_cpu_usage' returning id`, [s.id]);
    const [row] = await q<{ id: string }>(
      `insert into alerts (server_id, rule_id, hostname, instance, alertname, type, severity, status, created_at) values ($1, $2, $3, '10.0.0.1', 'high_cpu_usage', 'resouce_alert', 'warning', 'firing', $4) returning id`,
      [s.id, rule!.id, s.hostname, new Date(clock)],
    );
    await t.database.db.transaction((tx) => recordTransitions(tx as unknown as Db, new Date(clock), [{ alertId: row!.id, type: 'firing', note: null, notify: true, groupId: ops }]));
    expect(subjects(await step(75))).toEqual([`[FIRING] high_cpu_usage on ${s.hostname} (warning) -> ops@example.com`]);
  });

  it('flapping is one message: N changes within M notify once, then quiet until stable for M, then the current state', async () => {
    const ops = await group('ops');
    const s = await server(ops);
    await q(`update alert_rules set flap_transitions = 4, flap_window_seconds = 1800 where server_id = $1 and name = 'high_cpu_usage'`, [s.id]);
    const flip = async (from: number, high: boolean) => {
      await cpu(s.id, high ? 95 : 20);
      const sent = [...(await step(from))];
      if (high) sent.push(...(await step(from + 60)));
      return subjects(sent);
    };
    const h = s.hostname;
    expect(await flip(0, true)).toEqual([`[FIRING] high_cpu_usage on ${h} (warning) -> ops@example.com`]);
    expect(await flip(120, false)).toEqual([`[RESOLVED] high_cpu_usage on ${h} -> ops@example.com`]);
    expect(await flip(240, true)).toEqual([`[FIRING] high_cpu_usage on ${h} (warning) -> ops@example.com`]);
    // The fourth change within 30 minutes: one FLAPPING message instead of the resolution.
    expect(await flip(420, false)).toEqual([`[FLAPPING] high_cpu_usage on ${h} -> ops@example.com`]);
    expect(mails.at(-1)!.text).toContain('4 changes within 30m: notifications pause until it is stable for 30m.');
    // Quiet while it keeps flapping.
    expect(await flip(540, true)).toEqual([]);
    expect((await alertOf(s.id))!).toMatchObject({ mute: 'flapping', mute_label: 'Flapping' });
    expect(await flip(660, false)).toEqual([]);
    expect(await flip(780, true)).toEqual([]);
    // Stable (firing) since 840 s: 30 minutes later it is sent once.
    expect(await step(840 + 1799)).toEqual([]);
    expect(subjects(await step(840 + 1800))).toEqual([`[FIRING] high_cpu_usage on ${h} (warning) -> ops@example.com`]);
    expect(await step(840 + 2400)).toEqual([]);
  });

  it('a minimum interval holds a new firing message of the same rule back until it has passed, and drops it if resolved meanwhile', async () => {
    const ops = await group('ops');
    const s = await server(ops);
    await q(`update alert_rules set min_notify_interval_seconds = 1800 where server_id = $1 and name = 'high_cpu_usage'`, [s.id]);
    const h = s.hostname;
    await cpu(s.id, 95);
    await step(0);
    expect(subjects(await step(60))).toEqual([`[FIRING] high_cpu_usage on ${h} (warning) -> ops@example.com`]);
    await cpu(s.id, 20);
    expect(subjects(await step(120))).toEqual([`[RESOLVED] high_cpu_usage on ${h} -> ops@example.com`]);
    await cpu(s.id, 95);
    await step(180);
    expect(await step(240)).toEqual([]);
    const held = (await alertOf(s.id))!;
    expect((await notes(held.id))[0]).toMatch(/^Held back: this rule sends at most one notification every 30m; it goes out at .* if still firing\.$/);
    expect(await step(1859)).toEqual([]);
    expect(subjects(await step(1860))).toEqual([`[FIRING] high_cpu_usage on ${h} (warning) -> ops@example.com`]);
    // Resolved before its turn: nothing at all.
    await cpu(s.id, 20);
    expect(subjects(await step(1900))).toEqual([`[RESOLVED] high_cpu_usage on ${h} -> ops@example.com`]);
    await cpu(s.id, 95);
    await step(1960);
    await step(2020);
    await cpu(s.id, 20);
    expect(await step(2080)).toEqual([]);
    expect(await step(4000)).toEqual([]);
  });
});
