import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../server/contract/permissions';
import { startCheckTargets, type CheckTargets } from '../check-targets';
import { gunzipSync } from 'node:zlib';
import { buildApp } from '../../server/app';
import { dumpPglite } from '../../server/backup/backup';
import { testConfig } from '../../server/config';
import { backends, startTestApp, type TestApp } from './harness';

type Who = Role | 'anonymous';

const targets: CheckTargets = await startCheckTargets({ certDays: 3 });
afterAll(async () => targets.close());

describe.each(await backends())('checks API on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  const cookies = new Map<Who, string | undefined>();
  let n = 0;

  const create = async (body: Record<string, unknown>, who: Who = 'admin') => t.call('POST', '/api/checks', { cookie: cookies.get(who), body: { name: `check-${++n}`, ...body } });
  const created = async (body: Record<string, unknown>) => {
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result;
  };
  const runNow = async (id: string) => {
    const res = await t.call('POST', `/api/checks/run-now/${id}`, { cookie: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { result: any; run: any };
  };
  const snapshot = async () => ({
    checks: await t.database.query('select * from checks order by id'),
    rules: await t.database.query('select * from check_rules order by id'),
  });
  const tick = async () => (await t.app.alerting.tick())!;
  const alertsOf = (id: string) => t.database.query<any>('select * from alerts where check_id = $1 order by created_at', [id]);

  beforeAll(async () => {
    t = await startTestApp(backend, { monitoring: { ...(await import('../../server/config')).testConfig().monitoring, checks: { concurrency: 8, minIntervalS: 10, retentionHours: 48 } } });
    for (const who of ['admin', 'sysadmin', 'user', 'anonymous'] as Who[]) {
      if (who === 'anonymous') cookies.set(who, undefined);
      else {
        const u = await t.addUser({ role: who });
        cookies.set(who, await t.signIn(u.email, u.password));
      }
    }
    admin = cookies.get('admin')!;
  });
  afterAll(async () => t.close());

  it('creates an HTTP check with defaults and its three website_alert rules', async () => {
    const c = await created({ name: 'Shop front', kind: 'http', url: `${targets.httpUrl}/ok` });
    expect(c).toMatchObject({
      name: 'Shop front',
      kind: 'http',
      target: `${targets.httpUrl}/ok`,
      method: 'GET',
      expectedStatus: '200-299',
      followRedirects: true,
      ignoreTlsErrors: false,
      intervalSeconds: 60,
      timeoutSeconds: 10,
      paused: false,
      state: 'unknown',
      lastCheckedAt: null,
      uptime24h: null,
    });
    expect(c.rules.map((r: any) => [r.kind, r.name, r.enabled, r.timeLimit, r.threshold, r.severity])).toEqual([
      ['down', 'check_down', true, 60, null, 'critical'],
      ['latency', 'slow_response', false, 300, 2000, 'warning'],
      ['cert_expiry', 'certificate_expiring', false, 0, 14, 'warning'],
    ]);
    const again = await t.call('GET', `/api/checks/${c._id}`, { cookie: cookies.get('user') });
    expect(again.body.result).toEqual(c);
  });

  it('lets admin and sysadmin change checks; user only reads; anonymous nothing', async () => {
    expect((await create({ kind: 'tcp', host: '127.0.0.1', port: targets.tcpOpenPort }, 'sysadmin')).status).toBe(201);
    const before = await snapshot();
    expect((await create({ kind: 'tcp', host: '127.0.0.1', port: targets.tcpOpenPort }, 'user')).status).toBe(403);
    expect((await create({ kind: 'tcp', host: '127.0.0.1', port: targets.tcpOpenPort }, 'anonymous')).status).toBe(401);
    const list = await t.call('POST', '/api/checks/all', { cookie: cookies.get('user'), body: {} });
    expect(list.status).toBe(200);
    const id = list.body.result.data[0]._id;
    expect((await t.call('POST', `/api/checks/run-now/${id}`, { cookie: cookies.get('user') })).status).toBe(403);
    expect((await t.call('PATCH', `/api/checks/${id}`, { cookie: cookies.get('user'), body: { paused: true } })).status).toBe(403);
    expect((await t.call('DELETE', `/api/checks/${id}`, { cookie: cookies.get('user') })).status).toBe(403);
    expect((await t.call('POST', '/api/checks/all', { body: {} })).status).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    await created({ name: 'Taken name', kind: 'tcp', host: '127.0.0.1', port: targets.tcpOpenPort });
    const before = await snapshot();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ kind: 'http', url: 'not a url' }, 400, 'url'],
      [{ kind: 'http', url: 'ftp://files.example.com/x' }, 400, 'url'],
      [{ kind: 'http', url: 'javascript:alert(1)' }, 400, 'url'],
      [{ kind: 'http', url: 'https://user:pw@example.com/' }, 400, 'url'],
      [{ kind: 'http' }, 400, 'url'],
      [{ kind: 'http', url: 'https://example.com', headers: [{ name: 'X-Key', value: '-----BEGIN RSA PRIVATE KEY-----\nMIIE' }] }, 400, 'headers.0.value'],
      [{ kind: 'http', url: 'https://example.com', headers: [{ name: 'X-Cert', value: 'abc PRIVATE KEY----- def' }] }, 400, 'headers.0.value'],
      [{ kind: 'http', url: 'https://example.com', headers: [{ name: 'Bad Name', value: 'x' }] }, 400, 'headers.0.name'],
      [{ kind: 'http', url: 'https://example.com', headers: [{ name: 'X-A', value: 'a\r\nInjected: 1' }] }, 400, 'headers.0.value'],
      [{ kind: 'http', url: 'https://example.com', expectedStatus: '2xx' }, 400, 'expectedStatus'],
      [{ kind: 'http', url: 'https://example.com', intervalSeconds: 5 }, 400, 'intervalSeconds'],
      [{ kind: 'http', url: 'https://example.com', intervalSeconds: 30, timeoutSeconds: 40 }, 400, 'timeoutSeconds'],
      [{ kind: 'http', url: 'https://example.com', method: 'TRACE' }, 400, 'method'],
      [{ kind: 'http', url: 'https://example.com', rules: { latency: { threshold: -5 } } }, 400, 'rules.latency.threshold'],
      [{ kind: 'http', url: 'https://example.com', rules: { down: { notificationGroup: '00000000-0000-4000-8000-000000000000' } } }, 400, 'rules.down.notificationGroup'],
      [{ kind: 'http', url: 'https://example.com', rules: { bogus: {} } }, 400, 'rules.bogus'],
      [{ kind: 'tcp', host: '127.0.0.1' }, 400, 'port'],
      [{ kind: 'tcp', port: 22 }, 400, 'host'],
      [{ kind: 'tcp', host: 'bad host!', port: 22 }, 400, 'host'],
      [{ kind: 'tcp', host: '127.0.0.1', port: 70000 }, 400, 'port'],
      [{ kind: 'dns', recordType: 'A' }, 400, 'host'],
      [{ kind: 'dns', host: 'x.test', recordType: 'SRV' }, 400, 'recordType'],
      [{ kind: 'dns', host: 'x.test', resolver: 'dns.example.com' }, 400, 'resolver'],
      // Port 0 aborted the whole process inside Node's resolver; past 65535 it wrapped to another port.
      [{ kind: 'dns', host: 'x.test', resolver: '127.0.0.1:0' }, 400, 'resolver'],
      [{ kind: 'dns', host: 'x.test', resolver: '[::1]:0' }, 400, 'resolver'],
      [{ kind: 'dns', host: 'x.test', resolver: '127.0.0.1:65536' }, 400, 'resolver'],
      [{ kind: 'dns', host: 'x.test', resolver: '999.0.0.1' }, 400, 'resolver'],
      [{ kind: 'dns', host: 'x.test', resolver: '010.0.0.1' }, 400, 'resolver'],
      [{ kind: 'smtp', host: 'x' }, 400, 'kind'],
      [{ kind: 'http', url: 'https://example.com', extra: 1 }, 400, 'extra'],
      [{ kind: 'http', url: 'https://example.com', name: '' }, 400, 'name'],
    ];
    for (const [body, status, field] of cases) {
      const res = await create(body);
      expect([res.status, res.body.field], JSON.stringify(body)).toEqual([status, field]);
    }
    const unique = await created({ name: 'Unique', kind: 'tcp', host: '127.0.0.1', port: targets.tcpOpenPort });
    const dup = await create({ name: 'unique', kind: 'tcp', host: '127.0.0.1', port: targets.tcpOpenPort });
    expect([dup.status, dup.body.field]).toEqual([409, 'name']);
    const after = await snapshot();
    expect(after.checks.length).toBe(before.checks.length + 1);
    for (const [body, field] of [
      [{ url: 'https://example.com' }, 'url'],
      [{ port: 0 }, 'port'],
      [{ intervalSeconds: 60, timeoutSeconds: 61 }, 'timeoutSeconds'],
      [{ name: 'TAKEN NAME' }, 'name'],
      [{}, undefined],
    ] as const) {
      const patch = await t.call('PATCH', `/api/checks/${unique._id}`, { cookie: admin, body });
      expect([patch.status, patch.body.field], JSON.stringify(body)).toEqual([field === 'name' ? 409 : 400, field]);
    }
    expect(await snapshot()).toEqual(after);
  });

  it('refuses a check against Opsdeck itself (its listening port, PUBLIC_URL)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const before = await snapshot();
    for (const body of [
      { kind: 'http', url: `http://127.0.0.1:${port}/api/health` },
      { kind: 'http', url: `http://localhost:${port}/` },
      { kind: 'http', url: `http://[::1]:${port}/` },
      { kind: 'tcp', host: '127.0.0.1', port },
      { kind: 'tls', host: 'localhost', port },
    ]) {
      const res = await create(body);
      expect([res.status, res.body.field, res.body.message], JSON.stringify(body)).toEqual([400, body.kind === 'http' ? 'url' : 'host', `${body.kind === 'http' ? 'url' : 'host'}: a check cannot point at Opsdeck itself`]);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('runs now: writes the result on the check, its samples and rollups, and answers it', async () => {
    const c = await created({ kind: 'http', url: `${targets.httpUrl}/ok`, keyword: 'operational' });
    const { result, run } = await runNow(c._id);
    expect(run).toMatchObject({ up: true, statusCode: 200, error: null });
    expect(result).toMatchObject({ state: 'up', statusCode: 200, lastError: null, uptime24h: 100 });
    expect(result.latencyMs).toBeGreaterThan(0);
    expect(result.lastCheckedAt).not.toBeNull();
    await t.call('PATCH', `/api/checks/${c._id}`, { cookie: admin, body: { keyword: 'nowhere to be found' } });
    const second = await runNow(c._id);
    expect(second.result).toMatchObject({ state: 'down', lastError: 'The keyword "nowhere to be found" is not in the response', uptime24h: 50 });
    const results = await t.call('GET', `/api/checks/results/${c._id}?limit=5`, { cookie: admin });
    expect(results.body.result.map((r: any) => r.up)).toEqual([false, true]);
    const uptime = await t.call('GET', `/api/checks/uptime/${c._id}`, { cookie: admin });
    expect(uptime.body.result.days).toHaveLength(90);
    expect(uptime.body.result.days.at(-1)).toMatchObject({ uptime: 50, total: 2 });
    expect(uptime.body.result).toMatchObject({ uptime24h: 50, uptime7d: 50, uptime90d: 50 });
    const now = Date.now();
    const history = await t.call('GET', `/api/checks/history/${c._id}?from=${now - 3_600_000}&to=${now + 1000}`, { cookie: admin });
    expect(history.status).toBe(200);
    expect(history.body.result.latency.filter((v: number | null) => v !== null).length).toBeGreaterThanOrEqual(1);
    expect(history.body.result.uptime.filter((v: number | null) => v !== null)).toContain(50);
    // Prometheus keeps the history of the results from Opsdeck's own /metrics.
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain(`opsdeck_check_up{check="${c.name}",kind="http"} 0`);
    expect(metrics.body).toMatch(new RegExp(`opsdeck_check_status_code\\{check="${c.name}",kind="http"\\} 200`));
    const bad = await t.call('GET', `/api/checks/history/${c._id}?from=${now}&to=${now - 1}`, { cookie: admin });
    expect([bad.status, bad.body.field]).toEqual([400, 'to']);
  });

  it('HTTPS with a certificate expiring in 3 days: the certificate rule opens a website_alert with the date', async () => {
    const c = await created({ name: 'Secure shop', kind: 'http', url: `${targets.httpsUrl}/ok`, ignoreTlsErrors: true });
    expect(c.rules.find((r: any) => r.kind === 'cert_expiry')).toMatchObject({ enabled: true, threshold: 14, timeLimit: 0 });
    const { result } = await runNow(c._id);
    expect(result).toMatchObject({ state: 'up', certProblem: 'self-signed certificate' });
    expect(result.certDaysLeft).toBeGreaterThan(2.8);
    expect(result.certDaysLeft).toBeLessThanOrEqual(3);
    await tick(); // starts the grace period (0 s)
    await tick(); // over: opens
    const [alert] = await alertsOf(c._id);
    expect(alert).toMatchObject({ type: 'website_alert', alertname: 'certificate_expiring', severity: 'warning', status: 'firing', hostname: 'Secure shop', instance: `${targets.httpsUrl}/ok`, server_id: null });
    expect(alert.summary).toBe('The certificate of Secure shop expires in 2 days');
    expect(alert.description).toMatch(/^The TLS certificate of `https:\/\/127\.0\.0\.1:\d+\/ok` expires on \*\*\d{4}-\d\d-\d\d \d\d:\d\d UTC\*\*, within the 14-day threshold\.\n\nCertificate problem: `self-signed certificate`$/);
    const api = await t.call('GET', `/api/alerts/${alert.id}`, { cookie: cookies.get('user') });
    expect(api.body.result).toMatchObject({ checkId: c._id, serverId: null, type: 'website_alert', timeline: [{ type: 'firing' }] });
    // Lowering the threshold below the days left resolves it.
    await t.call('PATCH', `/api/checks/${c._id}`, { cookie: admin, body: { rules: { cert_expiry: { threshold: 2 } } } });
    await tick();
    expect((await alertsOf(c._id))[0]).toMatchObject({ status: 'resolved' });
  });

  it('down for its grace period opens check_down (queued to the rule group), up again resolves it, and an operator can resolve it', async () => {
    const group = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `web-team-${backend.name}`, emailList: ['web@example.com'] } });
    const c = await created({ name: 'Payments port', kind: 'tcp', host: '127.0.0.1', port: targets.tcpClosedPort, rules: { down: { timeLimit: 120, notificationGroup: group.body.result._id } } });
    expect((await runNow(c._id)).result).toMatchObject({ state: 'down', lastError: `Connection refused at 127.0.0.1:${targets.tcpClosedPort}` });
    await tick();
    expect(await alertsOf(c._id)).toEqual([]);
    const [pending] = await t.database.query<any>('select * from check_pending where check_id = $1', [c._id]);
    expect(pending).toBeTruthy();
    // The grace period has run (moved back rather than waited for).
    await t.database.query(`update check_pending set since = since - interval '121 seconds' where check_id = $1`, [c._id]);
    await runNow(c._id);
    await tick();
    const [alert] = await alertsOf(c._id);
    expect(alert).toMatchObject({ alertname: 'check_down', status: 'firing', severity: 'critical', summary: 'Payments port is down' });
    expect(alert.description).toBe(`The check of \`127.0.0.1:${targets.tcpClosedPort}\` has failed for 2 minutes.\n\nLast error: \`Connection refused at 127.0.0.1:${targets.tcpClosedPort}\``);
    const outbox = await t.database.query<any>('select transition, notification_group_id from alert_outbox where alert_id = $1', [alert.id]);
    expect(outbox).toEqual([{ transition: 'firing', notification_group_id: group.body.result._id }]);
    // Pointed at the open port: unknown until it runs, then up, and the next tick resolves.
    const moved = await t.call('PATCH', `/api/checks/${c._id}`, { cookie: admin, body: { port: targets.tcpOpenPort } });
    expect(moved.body.result).toMatchObject({ state: 'unknown', lastError: null, target: `127.0.0.1:${targets.tcpOpenPort}` });
    await runNow(c._id);
    await tick();
    const [resolved] = await alertsOf(c._id);
    expect(resolved.status).toBe('resolved');
    const events = await t.database.query<any>('select type, note from alert_events where alert_id = $1 order by at', [alert.id]);
    expect(events).toEqual([
      { type: 'firing', note: null },
      { type: 'resolved', note: 'The condition cleared.' },
    ]);
    // An operator's change of a check alert notifies the rule's group too.
    const reopen = await t.call('PATCH', `/api/alerts/${alert.id}`, { cookie: cookies.get('user'), body: { status: 'firing', log: 'Still flaky from the EU' } });
    expect(reopen.status).toBe(200);
    const outbox2 = await t.database.query<any>('select transition, notification_group_id from alert_outbox where alert_id = $1 order by created_at', [alert.id]);
    expect(outbox2.at(-1)).toEqual({ transition: 'firing', notification_group_id: group.body.result._id });
  });

  it('slow responses open slow_response; pausing resolves open alerts and opens nothing', async () => {
    const c = await created({ name: 'Slow API', kind: 'http', url: `${targets.httpUrl}/slow`, rules: { latency: { enabled: true, threshold: 500, timeLimit: 0 } } });
    const { result } = await runNow(c._id);
    expect(result.latencyMs).toBeGreaterThan(1000);
    await tick();
    await tick();
    const [alert] = await alertsOf(c._id);
    expect(alert).toMatchObject({ alertname: 'slow_response', status: 'firing' });
    expect(alert.description).toMatch(/^Response time is \*\*1\d{3} ms\*\*, above the 500 ms threshold at the first result\.$/);
    const paused = await t.call('PATCH', `/api/checks/${c._id}`, { cookie: admin, body: { paused: true } });
    expect(paused.body.result.paused).toBe(true);
    await tick();
    const events = await t.database.query<any>('select type, note from alert_events where alert_id = $1 order by at', [alert.id]);
    expect(events.at(-1)).toEqual({ type: 'resolved', note: 'The check was paused.' });
    await tick();
    expect((await alertsOf(c._id)).length).toBe(1);
  });

  it('keeps every header value out of every answer for every role, sealed in the database and its backup; an edit without the value keeps it (issue 25 §4)', async () => {
    const secrets = ['Bearer s3cret', 'team-ops-4f2a'];
    const c = await created({ kind: 'http', url: `${targets.httpUrl}/headers`, headers: [{ name: 'Authorization', value: 'Bearer s3cret' }, { name: 'X-Team', value: 'team-ops-4f2a' }] });
    // A custom header's name says nothing about what it carries: every value is masked.
    expect(c.headers).toEqual([
      { name: 'Authorization', value: null, redacted: true },
      { name: 'X-Team', value: null, redacted: true },
    ]);
    const noSecret = (what: string, body: unknown) => {
      for (const secret of secrets) expect(JSON.stringify(body), `${what} holds ${secret}`).not.toContain(secret);
    };
    expect((await runNow(c._id)).run).toMatchObject({ up: true, statusCode: 200 });
    for (const who of ['admin', 'sysadmin', 'user'] as const) {
      const cookie = cookies.get(who);
      const one = await t.call('GET', `/api/checks/${c._id}`, { cookie });
      expect(one.status).toBe(200);
      expect(one.body.result.headers).toEqual(c.headers);
      noSecret(`${who} one`, one.body);
      noSecret(`${who} list`, (await t.call('POST', '/api/checks/all', { cookie, body: { pageSize: 100 } })).body);
      noSecret(`${who} many`, (await t.call('GET', `/api/checks?id=${c._id}`, { cookie })).body);
      noSecret(`${who} results`, (await t.call('GET', `/api/checks/results/${c._id}`, { cookie })).body);
      noSecret(`${who} history`, (await t.call('POST', '/api/command-history/all', { cookie, body: { pageSize: 100 } })).body);
    }
    // Sealed at rest: neither the row nor anything else in the database holds a value in the clear.
    noSecret('checks row', await t.database.query('select * from checks where id = $1', [c._id]));
    noSecret('command history', await t.database.query('select * from command_history'));
    const stored = (await t.database.query<{ headers: any[] }>('select headers from checks where id = $1', [c._id]))[0]!.headers;
    expect(stored.map((h) => Object.keys(h).sort())).toEqual([['name', 'sealed'], ['name', 'sealed']]);
    // Nor a backup of it (the embedded database's file dump; pg_dump's custom format on PostgreSQL).
    if (t.database.pglite) {
      const dump = Buffer.from(gunzipSync(await dumpPglite(t.database.pglite)));
      for (const secret of secrets) expect(dump.includes(secret), `backup holds ${secret}`).toBe(false);
    }

    // An edit without the values (left out, or sent back as the mask) keeps them; so does one that does not touch headers.
    const kept = await t.call('PATCH', `/api/checks/${c._id}`, { cookie: admin, body: { headers: [{ name: 'Authorization' }, { name: 'X-Team', value: '••••' }] } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect((await runNow(c._id)).run).toMatchObject({ up: true });
    expect((await t.call('PATCH', `/api/checks/${c._id}`, { cookie: admin, body: { timeoutSeconds: 5 } })).status).toBe(200);
    expect((await runNow(c._id)).run).toMatchObject({ up: true });
    // A new value is taken, and sent.
    expect((await t.call('PATCH', `/api/checks/${c._id}`, { cookie: admin, body: { headers: [{ name: 'Authorization' }, { name: 'X-Team', value: 'other' }] } })).status).toBe(200);
    expect((await runNow(c._id)).run).toMatchObject({ up: false, statusCode: 401 });
    const missing = await t.call('PATCH', `/api/checks/${c._id}`, { cookie: admin, body: { headers: [{ name: 'X-Other' }] } });
    expect([missing.status, missing.body.field]).toEqual([400, 'headers.0.value']);
  });

  it('seals header values stored in the clear by an earlier version at start, keeping every value (issue 25 §4)', async () => {
    const c = await created({ kind: 'http', url: `${targets.httpUrl}/headers` });
    await t.database.query(`update checks set headers = $2::jsonb where id = $1`, [c._id, JSON.stringify([{ name: 'Authorization', value: 'Bearer s3cret' }, { name: 'X-Team', value: 'team-ops-4f2a' }])]);
    // As stored before: still sent as it is until a start seals it.
    expect((await runNow(c._id)).run).toMatchObject({ up: true });
    const again = await buildApp(testConfig({ signinRateLimit: 10_000 }), { database: t.database });
    try {
      await again.ready();
      const stored = JSON.stringify(await t.database.query('select headers from checks where id = $1', [c._id]));
      expect(stored).not.toContain('s3cret');
      expect(stored).not.toContain('team-ops-4f2a');
      expect((await runNow(c._id)).run).toMatchObject({ up: true, statusCode: 200 });
      // Nor in a backup taken after that start: not in the table's old pages, not in the write-ahead log.
      if (t.database.pglite) {
        const dump = Buffer.from(gunzipSync(await dumpPglite(t.database.pglite)));
        expect(dump.includes('s3cret')).toBe(false);
        expect(dump.includes('team-ops-4f2a')).toBe(false);
      }
    } finally {
      await again.close();
    }
  });

  it("shows the records a DNS check got only to the roles that may edit it, never in its alert (issue 25 §4)", async () => {
    const c = await created({ name: 'Service DNS answers', kind: 'dns', host: 'svc.opsdeck.test', resolver: targets.dnsResolver, expectedAnswer: '10.9.9.9', timeoutSeconds: 2, rules: { down: { timeLimit: 60 } } });
    const full = 'svc.opsdeck.test A answered 10.1.2.3; expected 10.9.9.9';
    const hidden = 'svc.opsdeck.test A did not give the expected answer';
    expect((await runNow(c._id)).result).toMatchObject({ state: 'down', lastError: full });
    const seen = async (cookie: string | undefined) => {
      const one = (await t.call('GET', `/api/checks/${c._id}`, { cookie })).body.result.lastError;
      const listed = (await t.call('POST', '/api/checks/all', { cookie, body: { filter: { name: 'Service DNS answers' } } })).body.result.data[0].lastError;
      const many = (await t.call('GET', `/api/checks?id=${c._id}`, { cookie })).body.result[0].lastError;
      const results = (await t.call('GET', `/api/checks/results/${c._id}`, { cookie })).body.result.map((r: { error: string | null }) => r.error);
      return { one, listed, many, results };
    };
    for (const who of ['admin', 'sysadmin'] as const) expect(await seen(cookies.get(who)), who).toEqual({ one: full, listed: full, many: full, results: [full] });
    const asUser = await seen(cookies.get('user'));
    expect(asUser).toEqual({ one: hidden, listed: hidden, many: hidden, results: [hidden] });
    expect(JSON.stringify(asUser)).not.toContain('10.1.2.3');
    // A read-only token of an admin edits nothing, so it reads what a user reads.
    const token = (await t.call('POST', '/api/auth/tokens', { cookie: admin, body: { name: `dns-read-${backend.name}`, scope: 'read' } })).body.result.token as string;
    const byToken = await t.app.inject({ method: 'GET', url: `/api/checks/${c._id}`, headers: { authorization: `Bearer ${token}` } });
    expect(JSON.parse(byToken.body).result.lastError).toBe(hidden);
    // The alert is read by every role (and sent to its group): the records stay on the check's page.
    await tick();
    await t.database.query(`update check_pending set since = since - interval '61 seconds' where check_id = $1`, [c._id]);
    await runNow(c._id);
    await tick();
    const [alert] = await alertsOf(c._id);
    expect(alert).toMatchObject({ alertname: 'check_down', status: 'firing' });
    expect(alert.description).toContain(`Last error: \`${hidden}\``);
    expect(JSON.stringify(alert)).not.toContain('10.1.2.3');
  });

  it('lists with search, filters and sorts on the shared resource machinery; deletes with everything it owns', async () => {
    const dns = await created({ name: 'Service DNS', kind: 'dns', host: 'svc.opsdeck.test', resolver: targets.dnsResolver, expectedAnswer: '10.1.2.3', timeoutSeconds: 2 });
    expect(dns.target).toBe('svc.opsdeck.test A');
    expect((await runNow(dns._id)).result.state).toBe('up');
    const found = await t.call('POST', '/api/checks/all', { cookie: admin, body: { search: 'svc.opsdeck', filter: { kind: 'dns', state: 'up' }, sort: { by: 'name', direction: 'asc' } } });
    expect(found.body.result.count).toBe(1);
    expect(found.body.result.data[0]).toMatchObject({ _id: dns._id, uptime24h: 100, rules: [{ kind: 'down' }, { kind: 'latency' }, { kind: 'cert_expiry' }] });
    const badSort = await t.call('POST', '/api/checks/all', { cookie: admin, body: { sort: { by: 'url', direction: 'asc' } } });
    expect([badSort.status, badSort.body.field]).toEqual([400, 'url']);
    const del = await t.call('DELETE', `/api/checks/${dns._id}`, { cookie: admin });
    expect(del.status).toBe(200);
    for (const table of ['check_rules', 'check_samples', 'check_hourly', 'check_daily']) {
      expect((await t.database.query<any>(`select count(*)::int as n from ${table} where check_id = $1`, [dns._id]))[0].n, table).toBe(0);
    }
    expect((await t.call('GET', `/api/checks/${dns._id}`, { cookie: admin })).status).toBe(404);
    expect((await t.call('POST', `/api/checks/run-now/${dns._id}`, { cookie: admin })).status).toBe(404);
  });

  it('lists a page exactly as it answers each check alone (rules, uptime24h, certificate, headers, sub-millisecond times)', async () => {
    // By now the checks above hold results, a certificate date, a rule with a group and a secret header.
    const paused = await created({ name: 'Paused one', kind: 'tcp', host: '127.0.0.1', port: 1, paused: true });
    await t.database.query(`update checks set state_changed_at = '2026-01-02 03:04:05.678999+00', latency_ms = 12.345678901 where id = $1`, [paused._id]);
    await t.database.query(`insert into check_hourly (check_id, bucket, total, up, latency_sum, latency_count, latency_max) values ($1, date_trunc('hour', now()), 3, 2, 30, 3, 12)`, [paused._id]);
    // The result writer keeps uptime24h's sums on each written check's row, equal to check_hourly's.
    const kept = await t.database.query<any>(`select c.id, c.up24_total, c.up24_up,
        (select sum(total)::int from check_hourly h where h.check_id = c.id and h.bucket >= c.up24_hour - interval '24 hours') as total,
        (select sum(up)::int from check_hourly h where h.check_id = c.id and h.bucket >= c.up24_hour - interval '24 hours') as up
      from checks c where c.up24_hour is not null`);
    expect(kept.length).toBeGreaterThanOrEqual(3);
    for (const k of kept) expect([k.up24_total, k.up24_up]).toEqual([k.total, k.up]);
    // Sums kept in an earlier hour are not this hour's: the list sums check_hourly instead.
    await t.database.query(`update checks set up24_hour = up24_hour - interval '1 hour', up24_total = 1000, up24_up = 1 where id = $1`, [kept[0].id]);
    const list = await t.call('POST', '/api/checks/all', { cookie: admin, body: { pageSize: 100, sort: { by: 'name', direction: 'asc' } } });
    expect(list.status).toBe(200);
    const data = list.body.result.data as any[];
    expect(data.length).toBe(list.body.result.count);
    expect(data.length).toBeGreaterThanOrEqual(5);
    expect(data.map((c) => c.name)).toEqual([...data.map((c) => c.name)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(data.find((c) => c._id === paused._id)).toMatchObject({ paused: true, stateChangedAt: '2026-01-02T03:04:05.678Z', latencyMs: 12.345678901, uptime24h: 66.667 });
    expect(data.some((c) => c.certExpiresAt !== null && c.certDaysLeft !== null)).toBe(true);
    expect(data.some((c) => c.rules.some((r: any) => r.notificationGroup !== null))).toBe(true);
    expect(data.some((c) => c.headers.some((h: any) => h.redacted))).toBe(true);
    for (const item of data) {
      const one = await t.call('GET', `/api/checks/${item._id}`, { cookie: admin });
      // certDaysLeft is computed from the clock at each answer; the rest is the same text, key for key.
      expect(JSON.stringify({ ...item, certDaysLeft: 0 })).toBe(JSON.stringify({ ...one.body.result, certDaysLeft: 0 }));
      expect(Math.abs((item.certDaysLeft ?? 0) - (one.body.result.certDaysLeft ?? 0))).toBeLessThanOrEqual(0.1);
    }
  });
});
