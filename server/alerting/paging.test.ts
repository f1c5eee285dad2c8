import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from '../../tests/api/harness';
import { PAGING_SECRETS, startPagingPeers, type PagingPeers } from '../../tests/api/paging-peers';
import { startSmtpSink, type SinkMail as Mail } from '../../tests/api/smtp-sink';
import type { DeliverySettings } from '../config';
import { testConfig } from '../config';
import { DeliveryWorker } from './delivery';
import { AlertEvaluator } from './evaluator';

/**
 * Issue 27 §3: escalation that pages people, end to end on each database — the real evaluator,
 * router and delivery worker with a clock the test moves (minutes pass in milliseconds), the real
 * API for contact methods, notification rules, schedules, groups and acknowledgements, real SMTP
 * and the Twilio stand-in that checks Twilio's request format. The person on call in a schedule is
 * paged at once on their first method and on the next after its delay; an acknowledgement stops
 * every page still waiting; a silence holds pages until it ends.
 */

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let twilio: PagingPeers;
let octet = 0;

beforeAll(async () => {
  [sink, twilio] = await Promise.all([startSmtpSink(), startPagingPeers()]);
});
afterAll(async () => Promise.all([sink.close(), twilio.close()]));

describe.each(await backends())('paging on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let ann: { _id: string; cookie: string };
  let bob: { _id: string; cookie: string };
  let T0 = 0;
  let clock = 0;
  let evaluator: AlertEvaluator;
  let worker: DeliveryWorker;
  let scheduleId = '';
  const at = (seconds: number) => (clock = T0 + seconds * 1000);
  const q = <T = Record<string, any>>(text: string, params?: unknown[]) => t.database.query<T>(text, params);
  const settings = (): DeliverySettings => ({
    ...testConfig().delivery,
    smtpUrl: sink.url,
    mailFrom: 'Opsdeck <alerts@opsdeck.test>',
    publicUrl: 'https://opsdeck.test',
    twilio: { accountSid: PAGING_SECRETS.twilioSid, authToken: PAGING_SECRETS.twilioToken, from: PAGING_SECRETS.twilioFrom },
    twilioApiUrl: `${twilio.url}/twilio`,
    channelTimeoutMs: 3000,
  });
  const sms = () => twilio.calls.filter((c) => c.peer === 'twilio-sms');

  /** A tick and a delivery pass at `seconds`; the mails and SMS sent meanwhile. */
  async function step(seconds: number): Promise<{ mails: Mail[]; sms: string[] }> {
    at(seconds);
    await q(`update servers set last_scraped_at = $1 where state = 'up'`, [new Date(clock)]);
    const [m, s] = [sink.mails.length, sms().length];
    await evaluator.tick();
    await worker.deliver();
    return { mails: sink.mails.slice(m), sms: sms().slice(s).map((c) => `${c.fields.To}: ${c.fields.Body}`) };
  }
  const to = (mails: Mail[]) => mails.map((m) => `${m.subject.replace(/ on route-\d+/, '')} -> ${m.to.join(',')}`);

  /** A person's verified methods, verified as a person does: a test message's code entered. */
  async function verified(who: { _id: string; cookie: string }, body: Record<string, unknown>, code: () => string) {
    const base = `/api/users/${who._id}/contact-methods`;
    const made = await t.call('POST', base, { cookie: who.cookie, body });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await t.call('POST', `${base}/${made.body.result._id}/test`, { cookie: who.cookie })).body.result.ok).toBe(true);
    const res = await t.call('POST', `${base}/${made.body.result._id}/verify`, { cookie: who.cookie, body: { code: code() } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const lastMailCode = () => /\b(\d{6})\b/.exec(sink.mails.at(-1)!.text)![1]!;
  const lastSmsCode = () => /\b(\d{6})\b/.exec(sms().at(-1)!.fields.Body!)![1]!;

  async function groupPaging(step: Record<string, unknown>) {
    const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `paging-${++octet}`, emailList: ['ops@example.com'], escalationSteps: [{ afterSeconds: 60, ...step }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result._id as string;
  }
  async function server(groupId: string) {
    const n = ++octet;
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: `route-${n}`, ipaddress: `10.73.${Math.floor(n / 250)}.${(n % 250) + 1}`, operating_system: 'linux', isAgentConfigured: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.result._id as string;
    await q(`update servers set state = 'up', cpu_usage = 95, memory_usage = 10, disk_usage = 10, last_scraped_at = $2 where id = $1`, [id, new Date(clock)]);
    await q(`update alert_rules set time_limit = 60, notification_group_id = $2 where server_id = $1 and name = 'high_cpu_usage'`, [id, groupId]);
    return id;
  }
  const alertOf = async (serverId: string) => (await q<{ id: string }>(`select id from alerts where server_id = $1 and alertname = 'high_cpu_usage'`, [serverId]))[0]!;
  const log = async (alertId: string) => (await q<{ target: string; channel: string; outcome: string }>(`select target, channel, outcome from alert_deliveries where alert_id = $1 order by at, target`, [alertId])).map((d) => `${d.outcome} ${d.channel} ${d.target}`);
  const notes = async (alertId: string) => (await q<{ note: string }>(`select note from alert_events where alert_id = $1 and type = 'playbook_action' order by at, note`, [alertId])).map((e) => e.note);

  beforeAll(async () => {
    t = await startTestApp(backend, { delivery: settings() });
    const a = await t.addUser({ role: 'admin', username: 'page-admin' });
    admin = await t.signIn(a.email, a.password);
    const person = async (username: string) => {
      const u = await t.addUser({ role: 'user', username, email: `${username}@example.com` });
      return { _id: u._id, cookie: await t.signIn(u.email, u.password) };
    };
    [ann, bob] = [await person('page-ann'), await person('page-bob')];
    // Ann: at once by email, after 5 minutes by SMS.
    await verified(ann, { kind: 'email', label: 'Mail', settings: { address: 'ann-pager@example.com' } }, lastMailCode);
    await verified(ann, { kind: 'sms', label: 'Mobile', settings: { phone: '+15550100123' } }, lastSmsCode);
    for (const [method, afterMinutes] of [['Mail', 0], ['Mobile', 5]] as const) expect((await t.call('POST', `/api/users/${ann._id}/notification-rules`, { cookie: ann.cookie, body: { method, afterMinutes } })).status).toBe(201);
    // Bob: no rules, one verified method: paged on it at once (the default).
    await verified(bob, { kind: 'email', label: 'Mail', settings: { address: 'bob-pager@example.com' } }, lastMailCode);
    // Ann is on call all the time.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const schedule = await t.call('POST', '/api/oncall-schedules', { cookie: admin, body: { name: 'Paging team', timeZone: 'UTC', layers: [{ participants: [ann._id], shift: { length: 1, unit: 'weeks' }, start: yesterday, handoff: '00:00' }] } });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    scheduleId = schedule.body.result._id;
  });
  afterAll(async () => {
    await evaluator?.stop();
    await worker?.stop();
    await t.close();
  });
  beforeEach(async () => {
    await evaluator?.stop();
    await worker?.stop();
    await q('delete from servers');
    await q('delete from silences');
    T0 = Math.floor(Date.now() / 60_000) * 60_000;
    clock = T0;
    evaluator = new AlertEvaluator(t.database, { enabled: false, evalIntervalS: 15, autoDefaults: false, staleAfterS: 60 }, quiet, () => clock);
    // The console's secret box: contact methods' secrets are sealed with it.
    worker = new DeliveryWorker(t.database, settings(), quiet, () => clock, t.app.secretBox, t.app.outbound);
  });

  it('escalation to a schedule pages whoever is on call: the first method at once, the next after its delay; the delivery log shows each page', async () => {
    const s = await server(await groupPaging({ scheduleIds: [scheduleId] }));
    expect((await step(0)).mails).toEqual([]);
    expect(to((await step(60)).mails)).toEqual(['[FIRING] high_cpu_usage (warning) -> ops@example.com']);
    // A minute unacknowledged: the step pages Ann, on call in the schedule, by email at once.
    const paged = await step(120);
    expect(to(paged.mails)).toEqual(['[ESCALATED] high_cpu_usage (warning) -> ann-pager@example.com']);
    expect(paged.mails[0]!.text).toContain('Paging page-ann (on call in Paging team).');
    expect(paged.sms).toEqual([]);
    // Her SMS comes 5 minutes later, not before.
    expect(await step(120 + 4 * 60)).toEqual({ mails: [], sms: [] });
    const later = await step(120 + 5 * 60);
    expect(later.mails).toEqual([]);
    expect(later.sms).toHaveLength(1);
    expect(later.sms[0]).toMatch(/^\+15550100123: .*high_cpu_usage/);
    expect(await step(120 + 60 * 60)).toEqual({ mails: [], sms: [] });

    const alert = await alertOf(s);
    expect(await log(alert.id)).toEqual(['sent email ops@example.com', 'sent email page-ann · Mail: ann-pager@example.com', 'sent sms page-ann · Mobile: +155…0123']);
    expect(await notes(alert.id)).toContain('Escalation step 1: paging page-ann (on call in Paging team): Mail at once, Mobile after 5 min.');
    // The alert's delivery log (the API the alert drawer reads) shows each page: whom, how, when, the outcome.
    const api = await t.call('GET', `/api/alerts/${alert.id}/deliveries`, { cookie: admin });
    expect(api.status).toBe(200);
    const pages = (api.body.result as { target: string; channel: string; outcome: string; at: string }[]).filter((d) => d.target.startsWith('page-ann'));
    expect(pages.map((d) => [d.channel, d.target, d.outcome, Date.parse(d.at) - T0])).toEqual([
      ['email', 'page-ann · Mail: ann-pager@example.com', 'sent', 120_000],
      ['sms', 'page-ann · Mobile: +155…0123', 'sent', (120 + 5 * 60) * 1000],
    ]);
  });

  it('an acknowledgement stops every page still waiting', async () => {
    const s = await server(await groupPaging({ scheduleIds: [scheduleId], pageUserIds: [bob._id] }));
    await step(0);
    await step(60);
    // Ann (on call) and Bob (named) are paged at once, each on their first method.
    expect(to((await step(120)).mails).sort()).toEqual(['[ESCALATED] high_cpu_usage (warning) -> ann-pager@example.com', '[ESCALATED] high_cpu_usage (warning) -> bob-pager@example.com']);
    const alert = await alertOf(s);
    expect((await q(`select 1 from alert_pages where alert_id = $1`, [alert.id])).length).toBe(1);
    at(180);
    expect((await t.call('POST', `/api/alerts/${alert.id}/ack`, { cookie: ann.cookie, body: { note: 'on it' } })).status).toBe(200);
    for (const sec of [120 + 5 * 60, 120 + 30 * 60]) expect(await step(sec)).toEqual({ mails: [], sms: [] });
    expect((await q(`select 1 from alert_pages where alert_id = $1`, [alert.id])).length).toBe(0);
    expect(await notes(alert.id)).toContain('Paging stopped: acknowledged; 1 page not sent.');
  });

  it('a silence holds the pages; they go out once it ends if the alert is still unacknowledged', async () => {
    const s = await server(await groupPaging({ scheduleIds: [scheduleId] }));
    await step(0);
    await step(60);
    expect(to((await step(120)).mails)).toEqual(['[ESCALATED] high_cpu_usage (warning) -> ann-pager@example.com']);
    const hostname = (await q<{ hostname: string }>(`select hostname from servers where id = $1`, [s]))[0]!.hostname;
    // Silenced from minute 3 to minute 30 of real time; the SMS due at minute 7 waits.
    const silence = await t.call('POST', '/api/silences', { cookie: admin, body: { matchers: [{ name: 'hostname', op: '=', value: hostname }], startsAt: new Date(T0 + 180_000).toISOString(), endsAt: new Date(T0 + 30 * 60_000).toISOString(), comment: 'paging pause' } });
    expect(silence.status, JSON.stringify(silence.body)).toBe(201);
    expect(await step(240)).toEqual({ mails: [], sms: [] });
    expect(await step(120 + 6 * 60)).toEqual({ mails: [], sms: [] });
    expect(await step(29 * 60)).toEqual({ mails: [], sms: [] });
    const after = await step(30 * 60 + 15);
    expect(after.sms).toHaveLength(1);
  });

  it('a step naming an unknown schedule or person is a 400 naming the field', async () => {
    for (const [stepBody, field] of [
      [{ scheduleIds: ['00000000-0000-4000-8000-000000000001'] }, 'escalationSteps.0.scheduleIds.0'],
      [{ pageUserIds: ['00000000-0000-4000-8000-000000000001'] }, 'escalationSteps.0.pageUserIds.0'],
      [{ scheduleIds: [] }, 'escalationSteps.0.groupId'],
    ] as const) {
      const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `bad-${++octet}`, emailList: [], escalationSteps: [{ afterSeconds: 60, ...stepBody }] } });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.field).toBe(field);
    }
  });
});
