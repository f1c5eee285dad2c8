import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultRulesIfMissing } from '../../server/alerting/defaults';
import { DeliveryWorker } from '../../server/alerting/delivery';
import { AlertEvaluator, type EvaluatorLogger } from '../../server/alerting/evaluator';
import type { DeliverySettings } from '../../server/config';
import { backends, startTestApp, type TestApp } from './harness';
import { PEER_SECRETS, startPeers, type Peers } from './channel-peers';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const PUBLIC_URL = 'https://opsdeck.example.com';
const quiet: EvaluatorLogger = { info: () => {}, warn: () => {}, error: () => {} };

let peers: Peers;
beforeAll(async () => {
  peers = await startPeers();
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  UNREACHABLE = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/hook`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(async () => peers.close());

/** A port nothing listens on (one just freed): connection refused. */
let UNREACHABLE = '';
const ALL_SECRETS = [PEER_SECRETS.signingSecret, PEER_SECRETS.routingKey, PEER_SECRETS.botToken, PEER_SECRETS.ntfyToken, PEER_SECRETS.ntfyTopic, 'X-Secret-Header-Value-42'];

const channelBodies = () => ({
  hook: { type: 'webhook', name: 'hook', secrets: { url: `${peers.url}/hook/signed?key=abc123secretpath`, signingSecret: PEER_SECRETS.signingSecret, headers: { 'X-Api-Key': 'X-Secret-Header-Value-42' } } },
  teams: { type: 'teams', name: 'teams', secrets: { url: `${peers.url}/teams/workflows/abc?sig=SIGSECRETSIGSECRET` } },
  pager: { type: 'pagerduty', name: 'pager', settings: { eventsUrl: `${peers.url}/pd/v2/enqueue` }, secrets: { routingKey: PEER_SECRETS.routingKey } },
  tg: { type: 'telegram', name: 'tg', settings: { chatId: PEER_SECRETS.chatId, apiUrl: `${peers.url}/tg` }, secrets: { botToken: PEER_SECRETS.botToken } },
  phone: { type: 'ntfy', name: 'phone', settings: { serverUrl: `${peers.url}/ntfy` }, secrets: { topic: PEER_SECRETS.ntfyTopic, token: PEER_SECRETS.ntfyToken } },
});

describe.each(await backends())('channel targets on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let user: string;
  let clock = T0;
  let evaluator: AlertEvaluator;
  let octet = 0;
  const q = <T = Record<string, any>>(text: string, params?: unknown[]) => t.database.query<T>(text, params);
  const settings = (o: Partial<DeliverySettings> = {}): DeliverySettings => ({
    enabled: false,
    pollIntervalS: 1,
    idlePollS: 10,
    mailFrom: 'Opsdeck <alerts@opsdeck.test>',
    slackApiUrl: 'http://127.0.0.1:9/api',
    publicUrl: PUBLIC_URL,
    retryDelaysS: [30, 120, 600, 1800],
    channelTimeoutMs: 3000,
    ...o,
  });
  const worker = () => new DeliveryWorker(t.database, settings(), quiet, () => (clock += 1), t.app.secretBox);
  const tick = async (seconds: number) => {
    clock = T0 + seconds * 1000;
    await q(`update servers set last_scraped_at = $1 where state = 'up'`, [new Date(clock)]);
    expect(await evaluator.tick()).not.toBeNull();
  };

  async function group(): Promise<string> {
    const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `chan-${++octet}`, emailEnabled: false } });
    expect(res.status).toBe(201);
    return res.body.result._id;
  }
  const add = (groupId: string, body: unknown) => t.call('POST', `/api/notification-groups/${groupId}/channels`, { cookie: admin, body });

  /** A server over 90 % CPU whose high_cpu_usage alert fires (at T0 + 300 s) to `groupId`. */
  async function firingAlert(groupId: string): Promise<{ alertId: string; hostname: string }> {
    const n = ++octet;
    const hostname = `chan-web-${n}`;
    const [row] = await q<{ id: string }>(
      `insert into servers (hostname, ipaddress, operating_system, is_agent_configured, state, cpu_usage, memory_usage, disk_usage)
       values ($1, $2, 'linux', true, 'up', 95, 20, 30) returning id`,
      [hostname, `10.40.${Math.floor(n / 250)}.${(n % 250) + 1}`],
    );
    await createDefaultRulesIfMissing(t.database.db, row!.id);
    await q(`update alert_rules set notification_group_id = $2 where server_id = $1 and name = 'high_cpu_usage'`, [row!.id, groupId]);
    await tick(0);
    await tick(300);
    const [alert] = await q<{ id: string }>(`select id from alerts where server_id = $1 and status = 'firing'`, [row!.id]);
    return { alertId: alert!.id, hostname };
  }
  const log = async (alertId: string) => (await t.call('GET', `/api/alerts/${alertId}/deliveries`, { cookie: admin })).body.result as any[];

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    const u = await t.addUser({ role: 'user' });
    user = await t.signIn(u.email, u.password);
  });
  afterAll(async () => {
    await evaluator?.stop();
    await t.close();
  });
  beforeEach(async () => {
    await evaluator?.stop();
    await q('delete from servers');
    peers.calls.length = 0;
    peers.busy.remaining = 0;
    clock = T0;
    evaluator = new AlertEvaluator(t.database, { enabled: false, evalIntervalS: 15, autoDefaults: false, staleAfterS: 60 }, quiet, () => clock);
  });

  it('adds one target of each type; secrets are stored encrypted and only ever shown masked', async () => {
    const g = await group();
    for (const body of Object.values(channelBodies())) expect((await add(g, body)).status).toBe(201);
    const res = await t.call('GET', `/api/notification-groups/${g}/channels`, { cookie: user });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.result.map((c: any) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(['hook', 'teams', 'pager', 'tg', 'phone']);
    expect(byName.hook).toMatchObject({ type: 'webhook', secrets: { url: 'http://127.0.0.1:' + peers.url.split(':')[2] + '/…', signingSecret: '••••1234', headers: { 'X-Api-Key': '••••' } } });
    expect(byName.pager).toMatchObject({ type: 'pagerduty', settings: { eventsUrl: `${peers.url}/pd/v2/enqueue` }, secrets: { routingKey: '••••2345' }, target: 'pager: routing key ••••2345' });
    expect(byName.tg).toMatchObject({ settings: { chatId: PEER_SECRETS.chatId }, secrets: { botToken: '••••cdef' } });
    const everything = JSON.stringify(res.body) + JSON.stringify(await q('select * from notification_channels'));
    for (const s of [...ALL_SECRETS, 'abc123secretpath', 'SIGSECRETSIGSECRET']) expect(everything).not.toContain(s);
    // The stored ciphertext is AES-GCM bound to its row: copied onto another row it does not open.
    const rows = await q<{ id: string; secrets: string }>(`select id, secrets from notification_channels where group_id = $1 order by name`, [g]);
    expect(rows[0]!.secrets).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    await q(`update notification_channels set secrets = $1 where id = $2`, [rows[0]!.secrets, rows[1]!.id]);
    const after = await t.call('GET', `/api/notification-groups/${g}/channels`, { cookie: admin });
    expect(after.status).toBe(200);
    expect(after.body.result.find((c: any) => c._id === rows[1]!.id).target).toMatch(/OPSDECK_SECRET_KEY is not the key/);
    // The audit trail keeps the request without its secrets.
    const trail = JSON.stringify(await q(`select * from command_history`).catch(() => []));
    for (const s of ALL_SECRETS) expect(trail).not.toContain(s);
  });

  it('bad input is a 4xx naming the field and adds nothing; users may not add; removing works once', async () => {
    const g = await group();
    const cases: [unknown, number, string][] = [
      [{ type: 'webhook', name: 'x', secrets: { url: 'not a url' } }, 400, 'secrets.url'],
      [{ type: 'webhook', name: 'x', secrets: { url: 'ftp://example.com/h' } }, 400, 'secrets.url'],
      [{ type: 'teams', name: 'x', secrets: {} }, 400, 'secrets.url'],
      [{ type: 'carrier-pigeon', name: 'x', secrets: {} }, 400, 'type'],
      [{ type: 'telegram', name: 'x', settings: { chatId: 'general' }, secrets: { botToken: PEER_SECRETS.botToken } }, 400, 'settings.chatId'],
      [{ type: 'telegram', name: 'x', settings: { chatId: '42' }, secrets: { botToken: 'nope' } }, 400, 'secrets.botToken'],
      [{ type: 'ntfy', name: 'x', settings: { priority: 9 }, secrets: { topic: 'ok' } }, 400, 'settings.priority'],
      [{ type: 'webhook', name: 'x', secrets: { url: 'https://h.example/', headers: { 'Content-Type': 'text/plain' } } }, 400, 'secrets.headers.Content-Type'],
      [{ type: 'webhook', name: 'x', secrets: { url: 'https://h.example/', headers: { 'X-A': 'a\r\nX-B: b' } } }, 400, 'secrets.headers.X-A'],
      // Never sendable (HTTP header values are bytes): each send failed naming a character of the secret.
      [{ type: 'webhook', name: 'x', secrets: { url: 'https://h.example/', headers: { 'X-A': 'Bearer tok€n' } } }, 400, 'secrets.headers.X-A'],
      [{ type: 'webhook', name: 'x', secrets: { url: 'https://h.example/', headers: { 'X-A': 'tok\u007fn' } } }, 400, 'secrets.headers.X-A'],
      [{ type: 'webhook', name: '', secrets: { url: 'https://h.example/' } }, 400, 'name'],
    ];
    for (const [body, status, field] of cases) {
      const res = await add(g, body);
      expect({ status: res.status, field: res.body.field }).toEqual({ status, field });
    }
    const count = async () => (await q(`select id from notification_channels where group_id = $1`, [g])).length;
    expect(await count()).toBe(0);
    expect((await t.call('POST', `/api/notification-groups/${g}/channels`, { cookie: user, body: channelBodies().teams })).status).toBe(403);
    expect((await add('00000000-0000-4000-8000-000000000000', channelBodies().teams)).status).toBe(404);
    expect((await add(g, channelBodies().teams)).status).toBe(201);
    const dup = await add(g, { ...channelBodies().teams, name: 'TEAMS' });
    expect({ status: dup.status, field: dup.body.field }).toEqual({ status: 409, field: 'name' });
    expect((await t.call('DELETE', `/api/notification-groups/${g}/channels/teams`, { cookie: admin })).status).toBe(200);
    expect((await t.call('DELETE', `/api/notification-groups/${g}/channels/teams`, { cookie: admin })).status).toBe(404);
    expect(await count()).toBe(0);
  });

  it('edits a target in place: what is left out or given empty is kept, null removes, bad input is a 4xx naming the field and changes nothing', async () => {
    const g = await group();
    expect((await add(g, { type: 'webhook', name: 'hook', secrets: { url: `${peers.url}/hook/old`, signingSecret: PEER_SECRETS.signingSecret, headers: { 'X-Api-Key': 'X-Secret-Header-Value-42' } } })).status).toBe(201);
    expect((await add(g, channelBodies().tg)).status).toBe(201);
    const patch = (channel: string, body: unknown, cookie = admin) => t.call('PATCH', `/api/notification-groups/${g}/channels/${encodeURIComponent(channel)}`, { cookie, body });
    const test = async (channel: string) => (await t.call('POST', `/api/notification-groups/${g}/test`, { cookie: admin, body: { channel } })).body.result[0];

    // A new URL and name; the signing secret given empty and the header left out are kept: the
    // stand-in at /hook/signed checks the signature made with the stored secret.
    const renamed = await patch('hook', { name: 'signed hook', secrets: { url: `${peers.url}/hook/signed`, signingSecret: '' } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.result).toMatchObject({ name: 'signed hook', type: 'webhook', secrets: { url: `${peers.url}/…`, signingSecret: '••••1234', headers: { 'X-Api-Key': '••••' } } });
    peers.calls.length = 0;
    expect(await test('signed hook')).toMatchObject({ ok: true, status: 200 });
    expect(peers.calls[0]).toMatchObject({ path: '/hook/signed', headers: { 'x-api-key': 'X-Secret-Header-Value-42' } });
    // null removes an optional secret.
    const unsigned = await patch('signed hook', { secrets: { signingSecret: null } });
    expect(unsigned.status).toBe(200);
    expect(unsigned.body.result.secrets).toEqual({ url: `${peers.url}/…`, headers: { 'X-Api-Key': '••••' } });

    // Telegram: another chat, the bot token kept (a wrong token would be a 401, not "chat not found").
    expect((await patch('tg', { settings: { chatId: '-100999' } })).body.result).toMatchObject({ settings: { chatId: '-100999' }, secrets: { botToken: '••••cdef' } });
    expect(await test('tg')).toMatchObject({ ok: false, status: 400, error: 'Telegram answered HTTP 400 (the chat id or the message was refused)' });
    expect((await patch('tg', { settings: { chatId: PEER_SECRETS.chatId } })).status).toBe(200);
    expect(await test('tg')).toMatchObject({ ok: true, status: 200 });

    // Bad input: a 4xx naming the field; nothing changes.
    const before = await q('select id, name, settings, secrets from notification_channels where group_id = $1 order by id', [g]);
    const cases: [string, unknown, number, string | undefined][] = [
      ['signed hook', { secrets: { url: 'not a url' } }, 400, 'secrets.url'],
      ['signed hook', { type: 'teams' }, 400, 'type'],
      ['signed hook', { settings: { bogus: 1 } }, 400, 'settings.bogus'],
      ['signed hook', { secrets: { url: null } }, 400, 'secrets.url'],
      ['signed hook', {}, 400, undefined],
      ['signed hook', { name: 'TG' }, 409, 'name'],
      ['tg', { settings: { chatId: 'general' } }, 400, 'settings.chatId'],
      ['tg', { secrets: { botToken: 'nope' } }, 400, 'secrets.botToken'],
    ];
    for (const [channel, body, status, field] of cases) {
      const res = await patch(channel, body);
      expect({ channel, body, status: res.status, field: res.body.field }).toEqual({ channel, body, status, field });
    }
    expect((await patch('tg', { settings: { chatId: '-100999' } }, user)).status).toBe(403);
    expect((await patch('nope', { name: 'x' })).status).toBe(404);
    expect(await q('select id, name, settings, secrets from notification_channels where group_id = $1 order by id', [g])).toEqual(before);
    // The trail keeps the edits without their secrets.
    const trail = JSON.stringify(await q(`select request_body, error from command_history where route = '/api/notification-groups/:id/channels/:channel'`));
    expect(trail).toContain('signed hook');
    for (const s of [PEER_SECRETS.signingSecret, 'X-Secret-Header-Value-42', PEER_SECRETS.botToken]) expect(trail).not.toContain(s);
  });

  it('a firing alert reaches every target in its official shape; a dead one and a refusing one lose nothing for the others', async () => {
    const g = await group();
    for (const body of Object.values(channelBodies())) await add(g, body);
    await add(g, { type: 'webhook', name: 'dead', secrets: { url: UNREACHABLE } });
    await add(g, { type: 'teams', name: 'picky', secrets: { url: `${peers.url}/teams/reject` } });
    const { alertId, hostname } = await firingAlert(g);
    const w = worker();
    expect(await w.deliver()).toMatchObject({ sent: 5, failed: 2 });

    const by = (peer: string) => peers.calls.filter((c) => c.peer === peer);
    const hook = by('webhook')[0]!;
    expect(hook.body).toMatchObject({
      version: '4',
      status: 'firing',
      receiver: 'hook',
      externalURL: PUBLIC_URL,
      truncatedAlerts: 0,
      alerts: [{ status: 'firing', labels: { alertname: 'high_cpu_usage', severity: 'warning', hostname, type: 'resouce_alert' }, annotations: { summary: `High CPU usage on ${hostname}` }, endsAt: '0001-01-01T00:00:00Z', generatorURL: `${PUBLIC_URL}/notifications/show/${alertId}` }],
    });
    expect(hook.headers['x-api-key']).toBe('X-Secret-Header-Value-42');
    expect(by('teams')[0]!.body.attachments[0].content.body[0].inlines[0].text).toBe(`FIRING: high_cpu_usage on ${hostname} (warning)`);
    expect(by('pagerduty')[0]!.body).toMatchObject({ event_action: 'trigger', dedup_key: `opsdeck-${alertId}`, payload: { severity: 'warning', source: hostname, class: 'high_cpu_usage' } });
    expect(by('telegram')[0]!.body).toMatchObject({ chat_id: PEER_SECRETS.chatId, link_preview_options: { is_disabled: true } });
    expect(by('telegram')[0]!.body.parse_mode).toBeUndefined();
    expect(by('ntfy')[0]!.body).toMatchObject({ topic: PEER_SECRETS.ntfyTopic, priority: 4, click: `${PUBLIC_URL}/notifications/show/${alertId}` });
    expect(by('ntfy')[0]!.headers.authorization).toBe(`Bearer ${PEER_SECRETS.ntfyToken}`);

    const entries = await log(alertId);
    const row = (name: string) => entries.find((e) => e.channelName === name);
    expect(row('hook')).toMatchObject({ channel: 'webhook', attempt: 1, outcome: 'sent', responseCode: 200 });
    expect(row('teams')).toMatchObject({ channel: 'teams', outcome: 'sent', responseCode: 202 });
    expect(row('pager')).toMatchObject({ channel: 'pagerduty', outcome: 'sent', responseCode: 202 });
    expect(row('tg')).toMatchObject({ channel: 'telegram', outcome: 'sent', responseCode: 200 });
    expect(row('phone')).toMatchObject({ channel: 'ntfy', outcome: 'sent', responseCode: 200 });
    // Unreachable: temporary, retried on the schedule. Refused with a 4xx: once, with the reason.
    expect(row('dead')).toMatchObject({ outcome: 'failed', responseCode: null, error: 'The webhook could not be reached: the connection was refused (ECONNREFUSED)' });
    expect(Date.parse(row('dead').retryAt) - Date.parse(row('dead').at)).toBe(30_000);
    expect(row('picky')).toMatchObject({ outcome: 'failed', responseCode: 400, error: 'Microsoft Teams answered HTTP 400 (the request was refused)', retryAt: null });
    const timeline = (await t.call('GET', `/api/alerts/${alertId}`, { cookie: admin })).body.result.timeline.map((e: any) => e.note ?? '');
    expect(timeline).toContain('PagerDuty event sent to pager: routing key ••••2345 (firing notification).');
    expect(timeline.find((n: string) => n.startsWith('Microsoft Teams message to picky'))).toContain('Not retried: the request itself was refused.');
    for (const s of [...ALL_SECRETS, 'abc123secretpath', 'SIGSECRETSIGSECRET']) expect(JSON.stringify([entries, timeline])).not.toContain(s);

    // The retry goes only to the dead target; the refused one is not tried again.
    peers.calls.length = 0;
    clock = T0 + 400_000;
    expect(await w.deliver()).toMatchObject({ sent: 0, failed: 1 });
    expect(peers.calls).toEqual([]);
    expect((await log(alertId)).filter((e) => e.channelName === 'dead').map((e) => e.attempt)).toEqual([1, 2]);
  });

  it('an acknowledgement in Opsdeck acknowledges in PagerDuty with the same dedup_key; resolving resolves it', async () => {
    const g = await group();
    await add(g, channelBodies().pager);
    await add(g, channelBodies().hook);
    const { alertId } = await firingAlert(g);
    const w = worker();
    await w.deliver();
    expect((await t.call('POST', `/api/alerts/${alertId}/ack`, { cookie: admin, body: { note: 'on it' } })).status).toBe(200);
    await w.deliver();
    expect((await t.call('PATCH', `/api/alerts/${alertId}`, { cookie: admin, body: { status: 'resolved', log: 'fixed' } })).status).toBe(200);
    await w.deliver();
    const pd = peers.calls.filter((c) => c.peer === 'pagerduty').map((c) => [c.body.event_action, c.body.dedup_key]);
    expect(pd).toEqual([
      ['trigger', `opsdeck-${alertId}`],
      ['acknowledge', `opsdeck-${alertId}`],
      ['resolve', `opsdeck-${alertId}`],
    ]);
    // The webhook hears firing and resolved only, in Alertmanager's terms.
    expect(peers.calls.filter((c) => c.peer === 'webhook').map((c) => c.body.status)).toEqual(['firing', 'resolved']);
    expect(peers.calls.find((c) => c.peer === 'webhook' && c.body.status === 'resolved')!.body.alerts[0].endsAt).not.toBe('0001-01-01T00:00:00Z');
    expect((await log(alertId)).find((e) => e.transition === 'acknowledged')).toMatchObject({ channel: 'pagerduty', outcome: 'sent', responseCode: 202 });
  });

  it('a 429 with Retry-After is retried when the peer said, not on the fixed schedule', async () => {
    const g = await group();
    await add(g, { type: 'teams', name: 'busy', secrets: { url: `${peers.url}/busy` } });
    const { alertId } = await firingAlert(g);
    peers.busy.remaining = 1;
    peers.busy.retryAfterS = 7;
    const w = worker();
    expect(await w.deliver()).toMatchObject({ failed: 1 });
    const [first] = await log(alertId);
    expect(first).toMatchObject({ outcome: 'failed', responseCode: 429, attempt: 1 });
    expect(Date.parse(first.retryAt) - Date.parse(first.at)).toBe(7000);
    clock = Date.parse(first.retryAt) - 1000;
    expect(await w.deliver()).toMatchObject({ rows: 0 });
    clock = Date.parse(first.retryAt);
    expect(await w.deliver()).toMatchObject({ sent: 1 });
    expect((await log(alertId)).map((e) => [e.attempt, e.outcome, e.responseCode])).toEqual([
      [1, 'failed', 429],
      [2, 'sent', 202],
    ]);
  });

  it('group test: a result per channel with the peer’s reason, never a 500, never a secret', async () => {
    const g = await group();
    await add(g, channelBodies().teams);
    await add(g, channelBodies().pager);
    await add(g, channelBodies().phone);
    await add(g, { ...channelBodies().tg, name: 'wrong-token', secrets: { botToken: '987654321:AAwrong-token-wrong-token-xyz' } });
    await add(g, { type: 'webhook', name: 'dead', secrets: { url: UNREACHABLE } });
    const res = await t.call('POST', `/api/notification-groups/${g}/test`, { cookie: admin, body: {} });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.result.map((r: any) => [r.name, r]));
    expect(byName.teams).toMatchObject({ ok: true, status: 202, error: null });
    expect(byName.pager).toMatchObject({ ok: true, status: 202 });
    expect(byName.phone).toMatchObject({ ok: true, status: 200 });
    expect(byName['wrong-token']).toMatchObject({ ok: false, status: 401, error: 'Telegram answered HTTP 401 (the bot token was refused)' });
    expect(byName.dead).toMatchObject({ ok: false, status: null, error: expect.stringContaining('could not be reached') });
    expect(JSON.stringify(res.body)).not.toContain('AAwrong-token');
    // The shared history records the run as failed, with each failing channel's reason (no secret).
    const lastTestRecord = async () =>
      (await q<{ outcome: string; error: string | null; status: number | null }>(`select outcome, error, status from command_history where route = '/api/notification-groups/:id/test' order by created_at desc, id desc limit 1`))[0];
    const failedRecord = await lastTestRecord();
    expect(failedRecord).toMatchObject({ outcome: 'error', status: null });
    expect(failedRecord!.error).toMatch(/^2 of 5 channels failed the test: wrong-token: Telegram answered HTTP 401 \(the bot token was refused\); dead: The webhook could not be reached/);
    expect(failedRecord!.error).not.toContain('AAwrong-token');
    // PagerDuty's test leaves no open incident: trigger then resolve on one key.
    expect(peers.calls.filter((c) => c.peer === 'pagerduty').map((c) => c.body.event_action)).toEqual(['trigger', 'resolve']);
    // One channel by name; an unknown one is a 404; a user may not send tests.
    peers.calls.length = 0;
    const one = await t.call('POST', `/api/notification-groups/${g}/test`, { cookie: admin, body: { channel: 'phone' } });
    expect(one.body.result.map((r: any) => r.name)).toEqual(['phone']);
    expect(peers.calls.map((c) => c.peer)).toEqual(['ntfy']);
    expect(await lastTestRecord()).toMatchObject({ outcome: 'ok', error: null });
    expect((await t.call('POST', `/api/notification-groups/${g}/test`, { cookie: admin, body: { channel: 'nope' } })).status).toBe(404);
    expect((await t.call('POST', `/api/notification-groups/${g}/test`, { cookie: user, body: {} })).status).toBe(403);
  });
});
