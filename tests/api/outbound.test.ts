import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../server/config';
import { METADATA_ADDRESS, SECRET, startStandIns, type StandIns } from '../outbound-stand-ins';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * Issue 25 §1–2: the one outbound policy (server/outbound/policy.ts) through the real app on
 * each database, against loopback stand-ins (tests/outbound-stand-ins.ts): link-local and cloud
 * metadata addresses in every form and the console's own port are refused at save time; a
 * "metadata service" on a denied loopback address is never contacted, not even by a name that
 * answered an allowed address when the check was saved (DNS rebinding, through a DNS stand-in
 * that answers differently on its second question); a keyword check says only match or no
 * match and run-now is limited; a channel test, History and the delivery log never carry what a
 * receiver answered beyond its status.
 */

const LINK_LOCAL = 'a link-local address (cloud instance metadata lives here)';
const RUN_NOW_PER_MINUTE = 3;

let s: StandIns;
beforeAll(async () => {
  s = await startStandIns();
  const script = (name: string, ...steps: { A?: string[]; AAAA?: string[] }[]) => s.answers.set(name, steps);
  script('meta.test', { A: ['169.254.169.254'] });
  script('meta6.test', { AAAA: ['fd00:ec2::254'] });
  script('mapped.test', { AAAA: ['::ffff:169.254.169.254'] });
  script('self.test', { A: ['127.0.0.1'] });
  // Both: the refused one is skipped, the allowed one is the one connected to.
  script('mixed.test', { A: ['169.254.169.254', '127.0.0.1'] });
});
afterAll(async () => s.close());

describe.each(await backends())('outbound policy on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let port: number;
  let n = 0;
  const q = <T = Record<string, any>>(text: string, params?: unknown[]) => t.database.query<T>(text, params);
  const createCheck = (body: Record<string, unknown>) => t.call('POST', '/api/checks', { cookie: admin, body: { name: `out-${++n}`, intervalSeconds: 60, timeoutSeconds: 3, ...body } });
  const created = async (body: Record<string, unknown>) => {
    const res = await createCheck(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result as { _id: string; name: string };
  };
  const runNow = (id: string) => t.call('POST', `/api/checks/run-now/${id}`, { cookie: admin });
  const group = async (body: Record<string, unknown> = {}) => (await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `out-group-${++n}`, emailEnabled: false, ...body } })).body.result._id as string;
  const addChannel = (groupId: string, body: unknown) => t.call('POST', `/api/notification-groups/${groupId}/channels`, { cookie: admin, body });
  const counts = async () => Object.fromEntries(await Promise.all(['checks', 'notification_channels', 'servers'].map(async (table) => [table, await t.count(table)])));

  beforeAll(async () => {
    const base = testConfig();
    t = await startTestApp(backend, {
      outbound: { allow: [], deny: [`${METADATA_ADDRESS}/32`], resolver: [s.dns] },
      monitoring: { ...base.monitoring, checks: { concurrency: 4, minIntervalS: 10, retentionHours: 48, runNowPerMinute: RUN_NOW_PER_MINUTE } },
      delivery: { ...base.delivery, smtpUrl: s.smtpUrl, slackBotToken: 'xoxb-outbound-test', slackApiUrl: `${s.secretUrl}/slack`, channelTimeoutMs: 3000 },
      alertmanager: { ...base.alertmanager, urls: [`http://${METADATA_ADDRESS}:${s.metadataPort}`] },
    });
    // Rebinding: an allowed loopback address when the target is saved, the denied one afterwards.
    for (const name of ['rebind', 'rebind-tcp', 'rebind-hook']) s.answers.set(`${name}.${backend.name}.test`, [{ A: ['127.0.0.1'] }, { A: [METADATA_ADDRESS] }]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
  });
  afterAll(async () => t.close());

  it('refuses link-local and metadata addresses in every form at save time, naming the field; nothing is written', async () => {
    const before = await counts();
    const checkCases: [Record<string, unknown>, string, string, string][] = [
      [{ kind: 'http', url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' }, 'url', '169.254.169.254', LINK_LOCAL],
      [{ kind: 'http', url: 'http://[::ffff:169.254.169.254]/latest/api/token', method: 'PUT' }, 'url', '169.254.169.254', LINK_LOCAL],
      [{ kind: 'http', url: 'http://[::ffff:a9fe:a9fe]/' }, 'url', '169.254.169.254', LINK_LOCAL],
      [{ kind: 'http', url: 'http://[::a9fe:a9fe]/' }, 'url', '169.254.169.254', LINK_LOCAL],
      [{ kind: 'http', url: 'http://[64:ff9b::a9fe:a9fe]/' }, 'url', '169.254.169.254', LINK_LOCAL],
      [{ kind: 'http', url: 'http://[fd00:ec2::254]/latest/meta-data/' }, 'url', 'fd00:ec2::254', 'a cloud metadata address (AWS)'],
      [{ kind: 'http', url: 'http://[fe80::1]/' }, 'url', 'fe80::1', 'a link-local address'],
      [{ kind: 'http', url: 'http://[fd20:ce::254]/computeMetadata/v1/' }, 'url', 'fd20:ce::254', 'a cloud metadata address (Google Cloud)'],
      [{ kind: 'http', url: 'http://[fd00:c1::a9fe:a9fe]/opc/v2/instance/', headers: [{ name: 'Authorization', value: 'Bearer Oracle' }] }, 'url', 'fd00:c1::a9fe:a9fe', 'a cloud metadata address (Oracle Cloud)'],
      [{ kind: 'http', url: 'http://100.100.100.200/latest/meta-data/' }, 'url', '100.100.100.200', 'a cloud metadata address (Alibaba Cloud)'],
      [{ kind: 'http', url: 'http://0.0.0.0/' }, 'url', '0.0.0.0', 'not an address to connect to'],
      [{ kind: 'http', url: 'http://meta.test/computeMetadata/v1/' }, 'url', '169.254.169.254', LINK_LOCAL],
      [{ kind: 'http', url: 'http://meta6.test/' }, 'url', 'fd00:ec2::254', 'a cloud metadata address (AWS)'],
      [{ kind: 'http', url: 'http://mapped.test/' }, 'url', '169.254.169.254', LINK_LOCAL],
      [{ kind: 'tcp', host: '169.254.169.254', port: 80 }, 'host', '169.254.169.254', LINK_LOCAL],
      [{ kind: 'tcp', host: '::ffff:169.254.169.254', port: 80 }, 'host', '169.254.169.254', LINK_LOCAL],
      [{ kind: 'tls', host: 'meta.test', port: 443 }, 'host', '169.254.169.254', LINK_LOCAL],
      [{ kind: 'dns', host: 'example.com', resolver: '169.254.169.253' }, 'resolver', '169.254.169.253', LINK_LOCAL],
    ];
    for (const [body, field, address, what] of checkCases) {
      const res = await createCheck(body);
      expect([res.status, res.body.field, res.body.message], JSON.stringify(body)).toEqual([400, field, `${field}: a check may not reach ${address}: it is ${what}`]);
    }
    // Headers only metadata services ask for are never sent, whatever the address.
    const trick = await createCheck({ kind: 'http', url: `${s.secretUrl}/secret`, headers: [{ name: 'Metadata-Flavor', value: 'Google' }] });
    expect([trick.status, trick.body.field]).toEqual([400, 'headers.0.name']);
    expect(trick.body.message).toMatch(/^headers\.0\.name: header name is one cloud metadata services require/);

    const g = await group();
    const channelCases: [Record<string, unknown>, string, string][] = [
      [{ type: 'webhook', name: 'meta-hook', secrets: { url: 'http://169.254.169.254/latest/meta-data/' } }, 'secrets.url', '169.254.169.254'],
      [{ type: 'teams', name: 'meta-teams', secrets: { url: 'http://meta.test/hook' } }, 'secrets.url', '169.254.169.254'],
      [{ type: 'ntfy', name: 'meta-ntfy', settings: { serverUrl: 'http://mapped.test' }, secrets: { topic: 'alerts' } }, 'settings.serverUrl', '169.254.169.254'],
      [{ type: 'telegram', name: 'meta-tg', settings: { chatId: '12345', apiUrl: 'http://[::ffff:169.254.169.254]' }, secrets: { botToken: '123456:AAAAAAAAAAAAAAAAAAAAAAAA' } }, 'settings.apiUrl', '169.254.169.254'],
      [{ type: 'pagerduty', name: 'meta-pd', settings: { eventsUrl: 'http://[fd00:ec2::254]/v2/enqueue' }, secrets: { routingKey: 'R0UT1NGKEY' } }, 'settings.eventsUrl', 'fd00:ec2::254'],
    ];
    for (const [body, field, address] of channelCases) {
      const res = await addChannel(g, body);
      expect([res.status, res.body.field], JSON.stringify(body)).toEqual([400, field]);
      expect(res.body.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: a notification channel may not reach ${address.replace(/\./g, '\\.')}: it is `));
    }
    for (const ipaddress of ['169.254.169.254', 'fd00:ec2::254']) {
      const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: `meta-${++n}`, ipaddress, operating_system: 'linux' } });
      expect([res.status, res.body.field], ipaddress).toEqual([400, 'ipaddress']);
      expect(res.body.message).toMatch(new RegExp(`^ipaddress: an exporter may not reach ${ipaddress.replace(/\./g, '\\.')}: it is `));
    }
    expect(await counts()).toEqual(before);
  });

  it("refuses the console's own port by name and in every IPv6 form of loopback", async () => {
    const before = await counts();
    for (const body of [
      { kind: 'http', url: `http://[::ffff:127.0.0.1]:${port}/api/health` },
      { kind: 'http', url: `http://[::ffff:7f00:1]:${port}/` },
      { kind: 'http', url: `http://[::7f00:1]:${port}/` },
      { kind: 'http', url: `http://[64:ff9b::7f00:1]:${port}/` },
      { kind: 'http', url: `http://127.9.9.9:${port}/` },
      { kind: 'http', url: `http://self.test:${port}/` },
      { kind: 'tcp', host: '::ffff:127.0.0.1', port },
      { kind: 'tls', host: 'self.test', port },
    ]) {
      const res = await createCheck(body);
      const field = body.kind === 'http' ? 'url' : 'host';
      expect([res.status, res.body.field, res.body.message], JSON.stringify(body)).toEqual([400, field, `${field}: a check cannot point at Opsdeck itself`]);
    }
    const hook = await addChannel(await group(), { type: 'webhook', name: 'loop', secrets: { url: `http://[::ffff:127.0.0.1]:${port}/api/integrations/alertmanager` } });
    expect([hook.status, hook.body.field, hook.body.message]).toEqual([400, 'secrets.url', 'secrets.url: a notification channel cannot point at Opsdeck itself']);
    expect((await counts()).checks).toBe(before.checks);
  });

  it('never contacts a denied address: not literally, not through a rebinding name, not from a channel or Alertmanager', async () => {
    for (const url of [`http://${METADATA_ADDRESS}:${s.metadataPort}/`, `http://[::ffff:${METADATA_ADDRESS}]:${s.metadataPort}/`]) {
      const res = await createCheck({ kind: 'http', url });
      expect([res.status, res.body.message], url).toEqual([400, `url: a check may not reach ${METADATA_ADDRESS}: OUTBOUND_DENY refuses it`]);
    }
    const refusal = `a check may not reach ${METADATA_ADDRESS}: OUTBOUND_DENY refuses it`;
    // Saved while the name answered 127.0.0.1; by the run it answers the denied address.
    const web = await created({ kind: 'http', url: `http://rebind.${backend.name}.test:${s.metadataPort}/latest/meta-data/iam/` });
    const webRun = await runNow(web._id);
    expect(webRun.status).toBe(200);
    expect(webRun.body.run).toMatchObject({ up: false, statusCode: null, error: refusal });
    expect(webRun.body.result).toMatchObject({ state: 'down', lastError: refusal });
    const tcp = await created({ kind: 'tcp', host: `rebind-tcp.${backend.name}.test`, port: s.metadataPort });
    expect((await runNow(tcp._id)).body.run).toMatchObject({ up: false, error: refusal });

    const g = await group();
    const hook = await addChannel(g, { type: 'webhook', name: 'rebound', secrets: { url: `http://rebind-hook.${backend.name}.test:${s.metadataPort}/hook` } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const test = await t.call('POST', `/api/notification-groups/${g}/test`, { cookie: admin, body: {} });
    expect(test.body.result).toEqual([
      expect.objectContaining({ name: 'rebound', ok: false, status: null, error: `The webhook was not called: a notification channel may not reach ${METADATA_ADDRESS}: OUTBOUND_DENY refuses it` }),
    ]);

    await q(
      `insert into alerts (hostname, instance, alertname, type, severity, status, summary, description, subject)
       values ('opsdeck', 'opsdeck', 'OutboundProbe', 'monitoring_alert', 'critical', 'firing', 's', 'd', 'outbound')`,
    );
    await t.app.alertmanager.tick();
    expect(t.app.alertmanager.status().instances).toEqual([expect.objectContaining({ ok: false, lastError: `Alertmanager may not reach ${METADATA_ADDRESS}: OUTBOUND_DENY refuses it` })]);

    expect(s.metadataConnections()).toBe(0);
    // A name with a refused and an allowed address reaches the allowed one only.
    const mixed = await created({ kind: 'http', url: `http://mixed.test:${s.secretPort}/secret` });
    expect((await runNow(mixed._id)).body.run).toMatchObject({ up: true, statusCode: 200, error: null });
  });

  it('a keyword check says only match or no match, and run-now is limited per check (edits included)', async () => {
    const hits = () => s.secretHits.get('/secret') ?? 0;
    const c = await created({ kind: 'http', url: `${s.secretUrl}/secret`, keyword: 'SECRET-' });
    const first = await runNow(c._id);
    expect(first.body.run).toMatchObject({ up: true, statusCode: 200, error: null });
    await t.call('PATCH', `/api/checks/${c._id}`, { cookie: admin, body: { keyword: 'SECRET-8' } });
    const second = await runNow(c._id);
    expect(second.body.run).toMatchObject({ up: false, statusCode: 200, error: 'The keyword "SECRET-8" is not in the response' });
    expect((await runNow(c._id)).status).toBe(200);
    // The fourth in a minute: refused, with when to come back; the page is not fetched.
    const before = hits();
    const limited = await runNow(c._id);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(new RegExp(`^"${c.name}" ran on request ${RUN_NOW_PER_MINUTE} times in the last minute: try again in \\d+ s$`));
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(hits()).toBe(before);
    for (const answer of [first.body, second.body, limited.body]) expect(JSON.stringify(answer)).not.toContain(SECRET);

    // What else a target says is not repeated: an invalid Location, a database's banner.
    const redirect = await created({ kind: 'http', url: `${s.secretUrl}/bad-location` });
    expect((await runNow(redirect._id)).body.run).toMatchObject({ up: false, statusCode: 302, error: 'The redirect does not name a valid URL' });
    const database = await created({ kind: 'http', url: `http://127.0.0.1:${s.databasePort}/` });
    expect((await runNow(database._id)).body.run).toMatchObject({ up: false, error: `The answer from 127.0.0.1:${s.databasePort} is not HTTP` });
    const tls = await created({ kind: 'tls', host: '127.0.0.1', port: s.databasePort });
    expect(JSON.stringify((await runNow(tls._id)).body)).not.toContain(SECRET);
    const everything = JSON.stringify([await q('select * from checks'), await q('select * from check_samples'), await q('select * from command_history')]);
    expect(everything).not.toContain(SECRET);

    // With the loop running, an edit runs the check at once — from the same per-check budget.
    const runner = t.app.monitoring.checks;
    runner.start();
    try {
      const fresh = await created({ kind: 'http', url: `${s.secretUrl}/secret`, keyword: 'token' });
      await expect.poll(() => q(`select last_checked_at from checks where id = $1`, [fresh._id]).then((r) => r[0]!.last_checked_at), { timeout: 10_000 }).not.toBeNull();
      const edited = hits();
      await t.call('PATCH', `/api/checks/${fresh._id}`, { cookie: admin, body: { keyword: 'token=' } });
      await expect.poll(hits, { timeout: 10_000 }).toBe(edited + 1);
      // The spent one: an edit does not run it now (its next turn is a minute away).
      const spent = hits();
      await t.call('PATCH', `/api/checks/${c._id}`, { cookie: admin, body: { keyword: 'SECRET-9' } });
      await runner.reload();
      await new Promise((r) => setTimeout(r, 1500));
      expect(hits()).toBe(spent);
    } finally {
      await runner.stop();
    }
  });

  it("a redirect's target is not repeated: neither the scheme nor the host of its Location", async () => {
    const scheme = await created({ kind: 'http', url: `${s.secretUrl}/redirect-scheme` });
    expect((await runNow(scheme._id)).body.run).toMatchObject({ up: false, statusCode: 302, error: 'A redirect to a URL that is not http or https is not followed' });
    const host = await created({ kind: 'http', url: `${s.secretUrl}/redirect-host` });
    const run = (await runNow(host._id)).body;
    expect(run.run).toMatchObject({ up: false, statusCode: null, error: "The redirect's target does not resolve" });
    // URLs are lower-cased by the parser: the secret would come back in lower case.
    const everything = JSON.stringify([run, await q('select * from checks where id = any($1)', [[scheme._id, host._id]]), await q('select * from command_history')]).toLowerCase();
    expect(everything).not.toContain(SECRET.toLowerCase());
  });

  it("a channel test, History and the delivery log carry a receiver's status, never what it answered", async () => {
    const g = await group({ emailEnabled: true, emailList: ['ops@example.com'], slackEnabled: true, slackChannel: '#ops' });
    for (const body of [
      { type: 'webhook', name: 'picky', secrets: { url: `${s.secretUrl}/hook/400` } },
      { type: 'webhook', name: 'flaky', secrets: { url: `${s.secretUrl}/hook/500` } },
      { type: 'telegram', name: 'tg', settings: { chatId: '12345', apiUrl: `${s.secretUrl}/tg` }, secrets: { botToken: '123456:AAAAAAAAAAAAAAAAAAAAAAAA' } },
    ]) expect((await addChannel(g, body)).status).toBe(201);
    const test = await t.call('POST', `/api/notification-groups/${g}/test`, { cookie: admin, body: {} });
    expect(test.status).toBe(200);
    const byName = Object.fromEntries((test.body.result as { name: string; error: string }[]).map((r) => [r.name, r.error]));
    expect(byName).toEqual({
      Email: 'the SMTP server refused the sender or every recipient (550 5.1.1)',
      Slack: 'Slack refused the message: a reason Opsdeck does not know',
      picky: 'The webhook answered HTTP 400 (the request was refused)',
      flaky: 'The webhook answered HTTP 500 (a server error)',
      tg: 'Telegram answered HTTP 400 (the chat id or the message was refused)',
    });
    expect(JSON.stringify(test.body)).not.toContain(SECRET);

    // A real notification: the delivery log and the alert's timeline say the same, no more.
    const [alert] = await q<{ id: string }>(
      `insert into alerts (hostname, instance, alertname, type, severity, status, summary, description, subject)
       values ('opsdeck', 'opsdeck', 'OutboundEcho', 'monitoring_alert', 'critical', 'firing', 's', 'd', 'echo') returning id`,
    );
    await q(`insert into alert_outbox (alert_id, transition, notification_group_id) values ($1, 'firing', $2)`, [alert!.id, g]);
    expect(await t.app.delivery.deliver()).toMatchObject({ failed: 5 });
    const log = (await t.call('GET', `/api/alerts/${alert!.id}/deliveries`, { cookie: admin })).body.result as { error: string }[];
    expect(log.map((d) => d.error).sort()).toEqual(
      ['the SMTP server refused the sender or every recipient (550 5.1.1)', 'Slack refused the message: a reason Opsdeck does not know', 'The webhook answered HTTP 400 (the request was refused)', 'The webhook answered HTTP 500 (a server error)', 'Telegram answered HTTP 400 (the chat id or the message was refused)'].sort(),
    );
    const stored = JSON.stringify([await q('select * from command_history'), await q('select * from alert_deliveries'), await q('select * from alert_events')]);
    expect(stored).not.toContain(SECRET);
  });

  it("the agent port check of a server on a refused address says so at once, without connecting", async () => {
    const [row] = await q<{ id: string }>(`insert into servers (hostname, ipaddress, operating_system) values ('imds', '169.254.169.254', 'linux') returning id`);
    const started = Date.now();
    const res = await t.call('GET', `/api/servers/check-port-access/${row!.id}`, { cookie: admin });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(`Port 9100 on 169.254.169.254 is not accessible: an exporter may not reach 169.254.169.254: it is ${LINK_LOCAL}. Check that the agent runs and that a firewall lets this console reach the port.`);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe.each(await backends())('runs on request across checks on $name', (backend) => {
  // One run on request per check and minute: ten across the console.
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    const base = testConfig();
    t = await startTestApp(backend, { monitoring: { ...base.monitoring, checks: { concurrency: 4, minIntervalS: 10, retentionHours: 48, runNowPerMinute: 1 } } });
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
  });
  afterAll(async () => t.close());

  it('a new check per guess is no way around the limit: runs on request are limited across checks too', async () => {
    const path = `/guess-${backend.name}`;
    const hits = () => s.secretHits.get(path) ?? 0;
    const runner = t.app.monitoring.checks;
    runner.start();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await t.call('POST', '/api/checks', { cookie: admin, body: { name: `guess-${i}`, kind: 'http', url: `${s.secretUrl}${path}`, keyword: `token=SECRET-${i.toString(16)}`, intervalSeconds: 600, timeoutSeconds: 3 } });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        ids.push(res.body.result._id);
      }
      // Every new check is in the schedule (a reload under way when one was made may have missed it).
      await runner.reload();
      await runner.reload();
      await expect.poll(hits, { timeout: 10_000 }).toBeGreaterThanOrEqual(10);
      await new Promise((r) => setTimeout(r, 1500));
      // Ten ran at once; the other two wait for their first turn.
      expect(hits()).toBe(10);
      const waiting = await t.database.query<{ id: string }>(`select id from checks where last_checked_at is null`);
      expect(waiting).toHaveLength(2);
      const refused = await t.call('POST', `/api/checks/run-now/${waiting[0]!.id}`, { cookie: admin });
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^Checks ran on request 10 times in the last minute: try again in \d+ s$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(hits()).toBe(10);
    } finally {
      await runner.stop();
    }
  });
});
