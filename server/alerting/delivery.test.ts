import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from '../../tests/api/harness';
import { buildApp } from '../app';
import { testConfig, type DeliverySettings } from '../config';
import { openDatabase } from '../db/client';
import { createDefaultRulesIfMissing } from './defaults';
import { DeliveryWorker } from './delivery';
import { startSmtpSink, type SinkMail as Mail } from '../../tests/api/smtp-sink';
import { AlertEvaluator, type EvaluatorLogger } from './evaluator';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const PUBLIC_URL = 'https://opsdeck.example.com';
const quiet: EvaluatorLogger = { info: () => {}, warn: () => {}, error: () => {} };

// ---------------------------------------------------------------------------------------------
// A real SMTP server and a stand-in for Slack's Web API, shared by both backends.

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let mails: Mail[] = [];
/** Recipients refused with 550 on their next RCPT TO (once each). */
let refuseOnce: Set<string>;
let smtpPort = 0;

interface SlackCall {
  authorization: string | undefined;
  body: { channel: string; text: string; blocks?: unknown[]; mrkdwn?: boolean };
}
const slackCalls: SlackCall[] = [];
/** Answers for the next calls, in order; then `{ok: true}`. */
const slackAnswers: { status: number; body: unknown; headers?: Record<string, string> }[] = [];
let slackDelayMs = 0;
let slack: Server;
let slackPort = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  smtpPort = sink.port;
  refuseOnce = sink.refuseOnce;
  mails = sink.mails;

  slack = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.url !== '/api/chat.postMessage') return res.writeHead(404).end();
      slackCalls.push({ authorization: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      if (slackDelayMs) await new Promise((r) => setTimeout(r, slackDelayMs));
      const answer = slackAnswers.shift() ?? { status: 200, body: { ok: true, ts: '1.0' } };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => slack.listen(0, '127.0.0.1', resolve));
  slackPort = (slack.address() as AddressInfo).port;
});

afterAll(async () => {
  await sink.close();
  await new Promise<void>((resolve) => slack.close(() => resolve()));
});

const settings = (overrides: Partial<DeliverySettings> = {}): DeliverySettings => ({
  enabled: false,
  pollIntervalS: 1,
  idlePollS: 10,
  smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
  mailFrom: 'Opsdeck <alerts@opsdeck.test>',
  slackBotToken: 'xoxb-test-token',
  slackApiUrl: `http://127.0.0.1:${slackPort}/api`,
  publicUrl: PUBLIC_URL,
  retryDelaysS: [30, 120, 600, 1800],
  ...overrides,
});

let octet = 0;

describe.each(await backends())('alert delivery on $name', (backend) => {
  let t: TestApp;
  let cookie: string;
  let clock = T0;
  const workers: DeliveryWorker[] = [];
  let evaluator: AlertEvaluator;
  const q = <T = Record<string, any>>(text: string, params?: unknown[]) => t.database.query<T>(text, params);
  const at = (seconds: number) => (clock = T0 + seconds * 1000);
  const worker = (overrides: Partial<DeliverySettings> = {}, log = quiet) => {
    const w = new DeliveryWorker(t.database, settings(overrides), log, () => clock);
    workers.push(w);
    return w;
  };
  const tick = async (seconds: number) => {
    at(seconds);
    await q(`update servers set last_scraped_at = $1 where state = 'up'`, [new Date(clock)]);
    expect(await evaluator.tick()).not.toBeNull();
  };

  async function group(fields: { emailEnabled?: boolean; emailList?: string[]; slackEnabled?: boolean; slackChannel?: string | null } = {}): Promise<string> {
    const [row] = await q<{ id: string }>(
      `insert into notification_groups (name, email_enabled, email_list, slack_enabled, slack_channel) values ($1, $2, $3, $4, $5) returning id`,
      [`group-${++octet}`, fields.emailEnabled ?? true, fields.emailList ?? ['ops@example.com', 'oncall@example.com'], fields.slackEnabled ?? true, fields.slackChannel === undefined ? '#ops' : fields.slackChannel],
    );
    return row!.id;
  }

  /** A server over 90 % CPU whose high_cpu_usage rule notifies `groupId`. */
  async function server(groupId: string | null, fields: { suppress_alarm?: 'yes' | 'no' } = {}): Promise<{ id: string; hostname: string }> {
    const n = ++octet;
    const hostname = `web-${n}`;
    const [row] = await q<{ id: string }>(
      `insert into servers (hostname, ipaddress, operating_system, is_agent_configured, state, cpu_usage, memory_usage, disk_usage, suppress_alarm)
       values ($1, $2, 'linux', true, 'up', 95, 20, 30, $3) returning id`,
      [hostname, `10.30.${Math.floor(n / 250)}.${(n % 250) + 1}`, fields.suppress_alarm ?? 'no'],
    );
    await createDefaultRulesIfMissing(t.database.db, row!.id);
    await q(`update alert_rules set notification_group_id = $2 where server_id = $1 and name = 'high_cpu_usage'`, [row!.id, groupId]);
    return { id: row!.id, hostname };
  }

  /** Fires the server's CPU alert through the evaluator (grace period 300 s), at T0 + 300 s. */
  async function fire(serverId: string): Promise<string> {
    await tick(0);
    await tick(300);
    const [alert] = await q<{ id: string }>(`select id from alerts where server_id = $1 and status = 'firing'`, [serverId]);
    expect(alert).toBeDefined();
    return alert!.id;
  }
  const resolve = async (serverId: string, seconds: number) => {
    await q(`update servers set cpu_usage = 40 where id = $1`, [serverId]);
    await tick(seconds);
  };
  const deliveries = (alertId: string) =>
    q<{ channel: string; target: string; attempt: number; outcome: string; error: string | null; retry_at: Date | null; transition: string }>(
      `select channel, target, attempt, outcome, error, retry_at, transition from alert_deliveries where alert_id = $1 order by at, channel, outcome`,
      [alertId],
    );
  const unprocessed = async () => (await q(`select id from alert_outbox where processed_at is null`)).length;
  const recipients = () => mails.flatMap((m) => m.to).sort();

  beforeAll(async () => {
    t = await startTestApp(backend);
    const admin = await t.addUser({ role: 'admin' });
    cookie = await t.signIn(admin.email, admin.password);
  });
  afterAll(async () => {
    for (const w of workers) await w.stop();
    await evaluator?.stop();
    await t.close();
  });
  beforeEach(async () => {
    for (const w of workers.splice(0)) await w.stop();
    // On PostgreSQL the evaluator holds an advisory lock until it stops.
    await evaluator?.stop();
    await q('delete from servers');
    await q('delete from notification_groups');
    mails.length = 0;
    slackCalls.length = 0;
    slackAnswers.length = 0;
    refuseOnce.clear();
    slackDelayMs = 0;
    clock = T0;
    evaluator = new AlertEvaluator(t.database, { enabled: false, evalIntervalS: 15, autoDefaults: false, staleAfterS: 60 }, quiet, () => clock);
  });

  it('a firing alert sends one email to each address of its group and one Slack message to its channel; resolving sends a second pair', async () => {
    const s = await server(await group());
    const alertId = await fire(s.id);
    // Each record a millisecond later, so the timeline's order does not rest on ties.
    const w = new DeliveryWorker(t.database, settings(), quiet, () => (clock += 1));
    workers.push(w);
    const link = `${PUBLIC_URL}/notifications/show/${alertId}`;

    expect(await w.deliver()).toMatchObject({ sent: 2, failed: 0, skipped: 0 });
    expect(recipients()).toEqual(['oncall@example.com', 'ops@example.com']);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`[FIRING] high_cpu_usage on ${s.hostname} (warning)`);
    expect(mails[0]!.text).toContain(`FIRING: High CPU usage on ${s.hostname}`);
    expect(mails[0]!.text).toMatch(/Severity:\s+warning/);
    expect(mails[0]!.text).toContain('CPU usage is 95.0%, above the 90% threshold for 5 minutes.');
    expect(mails[0]!.html).toContain('CPU usage is <strong>95.0%</strong>, above the 90% threshold for 5 minutes.');
    expect(mails[0]!.html).toContain(`<a href="${link}">View the alert</a>`);
    expect(mails[0]!.text).toContain(`View the alert: ${link}`);
    expect(slackCalls).toHaveLength(1);
    expect(slackCalls[0]!.authorization).toBe('Bearer xoxb-test-token');
    expect(slackCalls[0]!.body.channel).toBe('#ops');
    expect(slackCalls[0]!.body.text).toContain(`FIRING: high_cpu_usage on ${s.hostname} (warning)`);
    expect(slackCalls[0]!.body.text).toContain(`View alert: ${link}`);
    expect(slackCalls[0]!.body).toMatchObject({ mrkdwn: false });
    expect(JSON.stringify(slackCalls[0]!.body.blocks)).toContain('{"type":"text","text":"95.0%","style":{"bold":true}}');
    expect(await unprocessed()).toBe(0);

    // Nothing more until something changes.
    at(400);
    expect(await w.deliver()).toMatchObject({ rows: 0, sent: 0 });
    expect(mails).toHaveLength(1);

    await resolve(s.id, 600);
    expect(await w.deliver()).toMatchObject({ sent: 2 });
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe(`[RESOLVED] high_cpu_usage on ${s.hostname}`);
    expect(mails[1]!.text).toContain(`View the alert: ${link}`);
    expect(mails[1]!.text).toMatch(/Resolved:\s+2026-01-01 00:10:00 UTC/);
    expect(mails[0]!.text).toMatch(/Triggered:\s+2026-01-01 00:05:00 UTC/);
    expect(slackCalls).toHaveLength(2);
    expect(slackCalls[1]!.body.text).toContain(`RESOLVED: high_cpu_usage on ${s.hostname}`);

    expect(await deliveries(alertId)).toMatchObject([
      { transition: 'firing', channel: 'email', target: 'ops@example.com, oncall@example.com', attempt: 1, outcome: 'sent' },
      { transition: 'firing', channel: 'slack', target: '#ops', attempt: 1, outcome: 'sent' },
      { transition: 'resolved', channel: 'email', attempt: 1, outcome: 'sent' },
      { transition: 'resolved', channel: 'slack', attempt: 1, outcome: 'sent' },
    ]);
    // The alert's timeline (as the drawer reads it) shows every delivery.
    const res = await t.call('GET', `/api/alerts/${alertId}`, { cookie });
    const notes = res.body.result.timeline.map((e: { type: string; note: string | null }) => `${e.type}: ${e.note ?? ''}`);
    expect(notes).toEqual([
      'firing: ',
      'playbook_action: Email sent to ops@example.com, oncall@example.com (firing notification).',
      'playbook_action: Slack message sent to Slack #ops (firing notification).',
      'resolved: The condition cleared.',
      'playbook_action: Email sent to ops@example.com, oncall@example.com (resolved notification).',
      'playbook_action: Slack message sent to Slack #ops (resolved notification).',
    ]);
  });

  it('a service named like markup (link, image, HTML, backticks and blank lines, javascript:) reaches email and Slack as its text', async () => {
    const name = "[Click to fix](https://evil.example/phish) ![i](https://evil.example/p.png) <img src=x onerror=alert(1)> `x`\n\n# Heading [j](javascript:alert(1))";
    const flat = name.replace(/\n+/g, ' ');
    const s = await server(null);
    await q(`update servers set cpu_usage = 40 where id = $1`, [s.id]);
    await q(`update alert_rules set notification_group_id = $2 where server_id = $1 and name = 'service_down'`, [s.id, await group()]);
    await q(`insert into services (server_id, service_name, status) values ($1, $2, 'down')`, [s.id, name]);
    await tick(0);
    await tick(200);
    expect(await worker().deliver()).toMatchObject({ sent: 2, failed: 0 });

    const mail = mails[0]!;
    expect(mail.subject).toBe(`[FIRING] service_down on ${s.hostname} (critical)`);
    expect(mail.text).toContain(`FIRING: Service ${flat} is down on ${s.hostname}`);
    expect(mail.text).toContain(`The agent has reported ${flat} down for 2 minutes.`);
    // In HTML the name is escaped text inside <code>: no element of its own, one link (ours).
    expect(mail.html).toContain(`<code style="font-family:monospace;background:#f1f5f9;padding:0 3px">${flat.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')}</code>`);
    expect(mail.html.match(/<(a|img|h1|script)\b/g)).toEqual(['<a']);
    expect(mail.html).not.toContain('javascript:alert(1)"');

    // Slack: the name only in plain_text objects and rich_text runs, never in mrkdwn.
    const body = slackCalls[0]!.body;
    const objects: { type?: string; text?: unknown }[] = [];
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        objects.push(v as never);
        Object.values(v).forEach(walk);
      }
    };
    walk(body.blocks);
    const holding = objects.filter((o) => typeof o.text === 'string' && o.text.includes('evil.example'));
    // The summary section, the Service fact and the description's code run.
    expect(holding.map((o) => o.type).sort()).toEqual(['plain_text', 'plain_text', 'text']);
    expect(objects.filter((o) => o.type === 'mrkdwn')).toEqual([]);
    expect(holding.find((o) => o.type === 'text')).toEqual({ type: 'text', text: flat, style: { code: true } });
    expect(body.mrkdwn).toBe(false);
    expect(body.text).toContain(`Service ${flat.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')} is down`);
  });

  it('SMTP refusing, Slack {ok:false, internal_error} and Slack HTTP 500 are failed attempts, retried after 30 s and 2 min, then sent once', async () => {
    const s = await server(await group({ emailList: ['ops@example.com'] }));
    const alertId = await fire(s.id);
    refuseOnce.add('ops@example.com');
    slackAnswers.push({ status: 200, body: { ok: false, error: 'internal_error' } }, { status: 500, body: 'upstream trouble' });
    const w = worker();

    expect(await w.deliver()).toMatchObject({ sent: 0, failed: 2 });
    expect(await deliveries(alertId)).toMatchObject([
      { channel: 'email', attempt: 1, outcome: 'failed', error: expect.stringContaining('550'), retry_at: new Date(clock + 30_000) },
      { channel: 'slack', attempt: 1, outcome: 'failed', error: expect.stringContaining('internal_error'), retry_at: new Date(clock + 30_000) },
    ]);
    expect(mails).toHaveLength(0);

    at(300 + 29);
    expect(await w.deliver()).toMatchObject({ rows: 0 });
    at(300 + 30);
    expect(await w.deliver()).toMatchObject({ sent: 1, failed: 1 });
    expect(mails).toHaveLength(1);
    const slackRetry = (await deliveries(alertId)).filter((d) => d.channel === 'slack');
    expect(slackRetry[1]).toMatchObject({ attempt: 2, outcome: 'failed', error: expect.stringContaining('HTTP 500'), retry_at: new Date(clock + 120_000) });

    at(300 + 30 + 119);
    expect(await w.deliver()).toMatchObject({ rows: 0 });
    at(300 + 30 + 120);
    expect(await w.deliver()).toMatchObject({ sent: 1, failed: 0 });
    expect(slackCalls).toHaveLength(3);
    expect(mails).toHaveLength(1);
    expect(await unprocessed()).toBe(0);
    expect((await deliveries(alertId)).map((d) => `${d.channel} ${d.attempt} ${d.outcome}`)).toEqual([
      'email 1 failed',
      'slack 1 failed',
      'email 2 sent',
      'slack 2 failed',
      'slack 3 sent',
    ]);
    const notes = (await q<{ note: string }>(`select note from alert_events where alert_id = $1 and type = 'playbook_action' order by at, note`, [alertId])).map((e) => e.note);
    expect(notes[0]).toMatch(/^Email to ops@example.com failed \(firing notification, attempt 1 of 5\): `.*550.*`\. Next try at 2026-01-01T00:05:30.000Z\.$/);
  });

  it('Slack {ok:false} for a refusal (channel_not_found, invalid_auth) fails once with the reason; ratelimited waits for Slack\'s Retry-After', async () => {
    for (const code of ['channel_not_found', 'invalid_auth']) {
      slackCalls.length = 0;
      const s = await server(await group({ emailEnabled: false }));
      const alertId = await fire(s.id);
      slackAnswers.push({ status: 200, body: { ok: false, error: code } });
      const w = worker();
      expect(await w.deliver()).toMatchObject({ sent: 0, failed: 1 });
      expect(await deliveries(alertId)).toMatchObject([{ channel: 'slack', attempt: 1, outcome: 'failed', error: `Slack refused the message: ${code}`, retry_at: null }]);
      // Not tried again, however long one waits: the outbox row is done.
      at(300 + 3600);
      expect(await w.deliver()).toMatchObject({ rows: 0 });
      expect(slackCalls).toHaveLength(1);
      expect(await unprocessed()).toBe(0);
      const notes = (await q<{ note: string }>(`select note from alert_events where alert_id = $1 and type = 'playbook_action'`, [alertId])).map((e) => e.note);
      expect(notes.join('\n')).toContain('Not retried: the request itself was refused.');
      await q('delete from servers');
      clock = T0;
    }

    // Rate limited (HTTP 200 {ok:false, error: ratelimited} with Retry-After): retried when Slack said, not on the 30 s schedule.
    slackCalls.length = 0;
    const s = await server(await group({ emailEnabled: false }));
    const alertId = await fire(s.id);
    slackAnswers.push({ status: 200, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': '7' } });
    const w = worker();
    expect(await w.deliver()).toMatchObject({ failed: 1 });
    expect(await deliveries(alertId)).toMatchObject([{ channel: 'slack', attempt: 1, outcome: 'failed', error: 'Slack did not take the message now: ratelimited', retry_at: new Date(clock + 7000) }]);
    at(300 + 6);
    expect(await w.deliver()).toMatchObject({ rows: 0 });
    at(300 + 7);
    expect(await w.deliver()).toMatchObject({ sent: 1 });
    expect(slackCalls).toHaveLength(2);
  });

  it('a partly refused email is sent to the accepted addresses and retried only for the refused one', async () => {
    const s = await server(await group({ emailList: ['ops@example.com', 'oncall@example.com'], slackEnabled: false }));
    const alertId = await fire(s.id);
    refuseOnce.add('oncall@example.com');
    const w = worker();
    await w.deliver();
    expect(recipients()).toEqual(['ops@example.com']);
    at(330);
    await w.deliver();
    expect(recipients()).toEqual(['oncall@example.com', 'ops@example.com']);
    expect((await deliveries(alertId)).map((d) => `${d.attempt} ${d.outcome} ${d.target}`)).toEqual(['1 failed oncall@example.com', '1 sent ops@example.com', '2 sent oncall@example.com']);
    expect(await unprocessed()).toBe(0);
  });

  it('gives up after the last retry, logs it and sends no more', async () => {
    const s = await server(await group({ emailEnabled: false }));
    const alertId = await fire(s.id);
    for (let i = 0; i < 10; i++) slackAnswers.push({ status: 500, body: 'down' });
    const errors: string[] = [];
    const w = worker({}, { ...quiet, error: (_o: object, msg?: string) => errors.push(msg ?? '') });
    for (const s2 of [300, 330, 450, 1050, 2850]) {
      at(s2);
      expect(await w.deliver()).toMatchObject({ failed: 1 });
    }
    const log = await deliveries(alertId);
    expect(log.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(log[4]).toMatchObject({ outcome: 'failed', retry_at: null });
    expect(errors).toEqual(['Alert notification failed 5 times; gave up']);
    const [last] = await q<{ note: string }>(`select note from alert_events where alert_id = $1 and type = 'playbook_action' order by at desc limit 1`, [alertId]);
    expect(last!.note).toMatch(/attempt 5 of 5.*Gave up after 5 attempts\.$/);
    expect(await unprocessed()).toBe(0);
    at(100_000);
    expect(await w.deliver()).toMatchObject({ rows: 0 });
    expect(slackCalls).toHaveLength(5);
  });

  it('a new worker after a restart does not resend what was sent, and sends what was still due', async () => {
    const s = await server(await group({ emailList: ['ops@example.com'] }));
    const alertId = await fire(s.id);
    slackAnswers.push({ status: 500, body: 'down' });
    const first = worker();
    await first.deliver();
    expect(mails).toHaveLength(1);
    await first.stop();

    const second = worker();
    at(330);
    expect(await second.deliver()).toMatchObject({ sent: 1 });
    expect(mails).toHaveLength(1);
    expect(slackCalls).toHaveLength(2);
    await second.stop();

    at(1000);
    expect(await worker().deliver()).toMatchObject({ rows: 0 });
    expect(mails).toHaveLength(1);
    expect(slackCalls).toHaveLength(2);
    expect((await deliveries(alertId)).map((d) => `${d.channel} ${d.outcome}`)).toEqual(['email sent', 'slack failed', 'slack sent']);
  });

  it('a resolved message waits for its firing message while that one waits for a retry', async () => {
    const s = await server(await group({ emailEnabled: false }));
    await fire(s.id);
    slackAnswers.push({ status: 500, body: 'down' });
    const w = worker();
    await w.deliver();
    await resolve(s.id, 310);
    expect(await w.deliver()).toMatchObject({ rows: 0 });
    at(330);
    expect(await w.deliver()).toMatchObject({ rows: 2, sent: 2 });
    expect(slackCalls.map((c) => c.body.text.match(/FIRING|RESOLVED/)?.[0])).toEqual(['FIRING', 'FIRING', 'RESOLVED']);
  });

  it('channels without SMTP_URL or SLACK_BOT_TOKEN are skipped with the reason and not retried', async () => {
    const s = await server(await group());
    const alertId = await fire(s.id);
    const w = worker({ smtpUrl: undefined, slackBotToken: undefined });
    expect(await w.deliver()).toMatchObject({ skipped: 2, sent: 0, failed: 0 });
    expect(await deliveries(alertId)).toMatchObject([
      { channel: 'email', outcome: 'skipped', error: expect.stringContaining('SMTP_URL is not set'), retry_at: null },
      { channel: 'slack', outcome: 'skipped', error: expect.stringContaining('SLACK_BOT_TOKEN is not set'), retry_at: null },
    ]);
    expect(await unprocessed()).toBe(0);
    at(10_000);
    expect(await w.deliver()).toMatchObject({ rows: 0 });
    expect(mails).toHaveLength(0);
    expect(slackCalls).toHaveLength(0);
  });

  it('a channel that cannot send keeps the message as it would have gone out, for the delivery log', async () => {
    const s = await server(await group({ emailList: ['ops@example.com'], slackChannel: '#ops' }));
    const alertId = await fire(s.id);
    await worker({ smtpUrl: undefined, slackBotToken: undefined }).deliver();
    const rows = await q<{ channel: string; message: { subject: string | null; text: string } | null }>(`select channel, message from alert_deliveries where alert_id = $1 order by channel`, [alertId]);
    expect(rows.map((r) => r.channel)).toEqual(['email', 'slack']);
    const [email, slackRow] = rows.map((r) => (typeof r.message === 'string' ? JSON.parse(r.message) : r.message));
    expect(email.subject).toBe(`[FIRING] high_cpu_usage on ${s.hostname} (warning)`);
    expect(email.text).toContain(`Host:      ${s.hostname} (`);
    expect(email.text).toContain(`View the alert: ${PUBLIC_URL}/notifications/show/${alertId}`);
    expect(slackRow.subject).toBeNull();
    expect(slackRow.text.split('\n')[0]).toBe(`:large_orange_circle: FIRING: high_cpu_usage on ${s.hostname} (warning)`);
    expect(slackRow.text).toContain('Severity: warning');
    expect(slackRow.text).toContain(`View alert: ${PUBLIC_URL}/notifications/show/${alertId}`);
    // The API serves it with the attempt; a message that was sent keeps none.
    const log = (await t.call('GET', `/api/alerts/${alertId}/deliveries`, { cookie })).body.result as { channel: string; message: unknown }[];
    // Both attempts carry the worker's clock: the log orders them by id, so sort by channel here.
    expect(log.map((d) => [d.channel, (d.message as { subject: string | null } | null)?.subject ?? null]).sort()).toEqual([
      ['email', `[FIRING] high_cpu_usage on ${s.hostname} (warning)`],
      ['slack', null],
    ]);
    const sentTo = await server(await group({ emailList: ['ops@example.com'], slackEnabled: false }));
    const sentId = (await q<{ id: string }>(`select id from alerts where server_id = $1`, [sentTo.id]))[0]?.id ?? (await fire(sentTo.id));
    await worker().deliver();
    expect(await q(`select message from alert_deliveries where alert_id = $1`, [sentId])).toEqual([{ message: null }]);
  });

  it('a group with email disabled sends no email; a rule without a group sends nothing', async () => {
    const s = await server(await group({ emailEnabled: false, slackChannel: 'C0123' }));
    const bare = await server(null);
    const alertId = await fire(s.id);
    const bareAlert = (await q<{ id: string }>(`select id from alerts where server_id = $1`, [bare.id]))[0];
    expect(bareAlert).toBeDefined();
    await worker().deliver();
    expect(mails).toHaveLength(0);
    expect(slackCalls.map((c) => c.body.channel)).toEqual(['C0123']);
    expect((await deliveries(alertId)).map((d) => d.channel)).toEqual(['slack']);
    expect(await deliveries(bareAlert!.id)).toEqual([]);
    expect(await unprocessed()).toBe(0);
  });

  it('maintenance and snooze send nothing; a snoozed alert that resolves sends its resolution', async () => {
    const g = await group();
    const quietHost = await server(g, { suppress_alarm: 'yes' });
    const s = await server(g);
    const alertId = await fire(s.id);
    expect(await q(`select id from alerts where server_id = $1`, [quietHost.id])).toEqual([]);
    const w = worker();
    await w.deliver();
    expect(mails).toHaveLength(1);
    expect(slackCalls).toHaveLength(1);

    const res = await t.call('PATCH', `/api/alerts/${alertId}`, { cookie, body: { status: 'snoozed', log: 'Looking into it' } });
    expect(res.status).toBe(200);
    at(400);
    expect(await w.deliver()).toMatchObject({ rows: 0 });
    expect(mails).toHaveLength(1);
    expect(slackCalls).toHaveLength(1);

    await resolve(s.id, 500);
    await w.deliver();
    expect(mails.map((m) => m.subject.split(' ')[0])).toEqual(['[FIRING]', '[RESOLVED]']);

    // An alert that resolves while its server is in maintenance sends nothing either.
    await q(`update servers set cpu_usage = 95, suppress_alarm = 'no' where id = $1`, [s.id]);
    await tick(1000);
    await tick(1300);
    await w.deliver();
    expect(mails).toHaveLength(3);
    await q(`update servers set suppress_alarm = 'yes' where id = $1`, [s.id]);
    await resolve(s.id, 1400);
    expect(await q(`select id from alerts where server_id = $1 and status <> 'resolved'`, [s.id])).toEqual([]);
    expect(await w.deliver()).toMatchObject({ rows: 0 });
    expect(mails).toHaveLength(3);
  });

  it('running, looks again when a retry is due and at once when woken, not only every idlePollS', async () => {
    const s = await server(await group({ emailEnabled: false }));
    const alertId = await fire(s.id);
    slackAnswers.push({ status: 200, body: { ok: false, error: 'ratelimited' }, headers: { 'retry-after': '1' } });
    const from = clock;
    const started = Date.now();
    // A clock that moves with real time from the test's, and a fallback look an hour away.
    const w = new DeliveryWorker(t.database, settings({ enabled: true, pollIntervalS: 0.05, idlePollS: 3600 }), quiet, () => from + (Date.now() - started));
    workers.push(w);
    const outcomes = async () => (await deliveries(alertId)).map((d) => `${d.transition} ${d.outcome}`);
    w.start();
    try {
      for (let i = 0; i < 60 && !(await outcomes()).includes('firing sent'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await outcomes()).toEqual(['firing failed', 'firing sent']);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      await q(`update servers set cpu_usage = 40 where id = $1`, [s.id]);
      clock = from + (Date.now() - started);
      await q(`update servers set last_scraped_at = $1 where state = 'up'`, [new Date(clock)]);
      await evaluator.tick();
      w.wake();
      for (let i = 0; i < 40 && !(await outcomes()).includes('resolved sent'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await outcomes()).toEqual(['firing failed', 'firing sent', 'resolved sent']);
    } finally {
      await w.stop();
    }
  });

  it('starts and stops with the app when enabled', async () => {
    const s = await server(await group({ emailList: ['ops@example.com'] }));
    const alertId = await fire(s.id);
    // Only the leader delivers: on PostgreSQL the test's own app holds the lock until it lets go.
    await t.app.leader.stop();
    const app = await buildApp(testConfig({ delivery: settings({ enabled: true, pollIntervalS: 0.05 }) }), { database: t.database });
    await app.ready();
    try {
      for (let i = 0; i < 100 && (mails.length < 1 || slackCalls.length < 1 || (await deliveries(alertId)).length < 2); i++) await new Promise((r) => setTimeout(r, 50));
      expect(mails).toHaveLength(1);
      expect(slackCalls).toHaveLength(1);
      expect((await deliveries(alertId)).map((d) => d.outcome)).toEqual(['sent', 'sent']);
    } finally {
      await app.close();
      await t.app.leader.start();
    }
  });

  it.runIf(backend.name === 'postgres')('two processes on one PostgreSQL never send the same notification', async () => {
    const g = await group({ emailEnabled: false });
    const servers = [];
    for (let i = 0; i < 6; i++) servers.push(await server(g));
    await tick(0);
    await tick(300);
    expect(await unprocessed()).toBe(6);
    slackDelayMs = 40;
    const url = ((t.database.db as unknown as { $client: pg.Pool }).$client.options as { connectionString: string }).connectionString;
    const other = await openDatabase({ databaseUrl: url });
    try {
      const a = worker();
      const b = new DeliveryWorker(other, settings(), quiet, () => clock);
      const [ra, rb] = await Promise.all([a.deliver(), b.deliver()]);
      expect(ra.rows + rb.rows).toBe(6);
      expect(ra.rows).toBeGreaterThan(0);
      expect(rb.rows).toBeGreaterThan(0);
      expect(slackCalls).toHaveLength(6);
      expect(new Set(slackCalls.map((c) => c.body.text)).size).toBe(6);
      expect(await unprocessed()).toBe(0);
    } finally {
      await other.close();
    }
  });
});
