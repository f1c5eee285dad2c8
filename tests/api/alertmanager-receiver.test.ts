import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from './harness';

const ENV_TOKEN = 'env-receiver-token-0123456789';
const URL = '/api/integrations/alertmanager';
let seq = 0;

/** One Alertmanager webhook alert (payload version 4) as Alertmanager 0.25 sends it. */
function amAlert(over: { status?: 'firing' | 'resolved'; labels?: Record<string, string>; annotations?: Record<string, string>; startsAt?: string; endsAt?: string; fingerprint?: string } = {}) {
  return {
    status: over.status ?? 'firing',
    labels: over.labels ?? { alertname: 'HostHighLoad', severity: 'critical', instance: 'nowhere:9100', job: 'node' },
    annotations: over.annotations ?? { summary: 'Load is high', description: 'Load 12 > 8 for **5m**' },
    startsAt: over.startsAt ?? '2026-11-25T03:00:00.123456789Z',
    endsAt: over.endsAt ?? '0001-01-01T00:00:00Z',
    generatorURL: 'http://prometheus:9090/graph?g0.expr=vector%281%29',
    fingerprint: over.fingerprint ?? `fp${++seq}`,
  };
}
const payload = (alerts: unknown[], extra: Record<string, unknown> = {}) => ({
  version: '4',
  groupKey: '{}:{alertname="HostHighLoad"}',
  truncatedAlerts: 0,
  status: 'firing',
  receiver: 'opsdeck',
  groupLabels: {},
  commonLabels: {},
  commonAnnotations: {},
  externalURL: 'http://alertmanager:9093',
  alerts,
  ...extra,
});

/** Issue 15 §3: Alertmanager's webhook into Opsdeck alerts, on both databases. */
describe.each(await backends())('Alertmanager receiver on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let user: string;
  let serverId: string;
  const post = (body: unknown, token: string | null = ENV_TOKEN, raw?: string) =>
    t.call('POST', URL, { body: raw === undefined ? body : undefined, raw, headers: { 'x-requested-with': '', ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  const alertsBy = (fp: string) => t.database.query<{ id: string; status: string; server_id: string | null; hostname: string; resolved_at: Date | null }>(`select id, status, server_id, hostname, resolved_at from alerts where fingerprint = $1 order by created_at`, [fp]);

  beforeAll(async () => {
    t = await startTestApp(backend, { alertmanager: { urls: [], mirrorSilences: false, resendS: 60, pollMs: 1000, runbookUrl: '{publicUrl}/x', publicUrl: 'http://opsdeck.test', receiverToken: ENV_TOKEN } });
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    const u = await t.addUser({ role: 'user' });
    user = await t.signIn(u.email, u.password);
    const s = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'web-am-1', ipaddress: '10.72.0.1', operating_system: 'linux', isAgentConfigured: true } });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    serverId = s.body.result._id;
  });
  afterAll(async () => t.close());

  it('refuses a missing or wrong token with 401 and writes nothing; no session or cross-site header is needed with the right one', async () => {
    const before = await t.count('alerts');
    const none = await post(payload([amAlert()]), null);
    expect(none.status).toBe(401);
    expect(none.body.message).toMatch(/Bearer/);
    const wrong = await post(payload([amAlert()]), 'not-the-token');
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('This Alertmanager receiver token is not valid');
    // A session cookie is no credential here.
    expect((await t.call('POST', URL, { cookie: admin, body: payload([amAlert()]) })).status).toBe(401);
    expect(await t.count('alerts')).toBe(before);
  });

  it('answers a malformed payload with 400 naming the field, never a 500, and writes nothing', async () => {
    const before = await t.count('alerts');
    const cases: [unknown, string | undefined, RegExp][] = [
      [undefined, '{"version":', /JSON|body/i],
      [{ version: '4' }, undefined, /^alerts: must be a list of alerts/],
      [payload([amAlert()], { version: '3' }), undefined, /^version: must be "4"/],
      [payload({ not: 'a list' } as never), undefined, /^alerts: must be a list/],
      [payload([{ ...amAlert(), fingerprint: undefined }]), undefined, /^alerts\.0\.fingerprint: is required/],
      [payload([amAlert(), { ...amAlert(), startsAt: 'yesterday' }]), undefined, /^alerts\.1\.startsAt: must be an RFC 3339 time/],
      [payload([{ ...amAlert(), status: 'pending' }]), undefined, /^alerts\.0\.status: must be firing or resolved/],
      [payload([{ ...amAlert(), labels: { alertname: 5 } }]), undefined, /^alerts\.0\.labels\.alertname/],
      [payload([{ ...amAlert(), labels: 'x' }]), undefined, /^alerts\.0\.labels: must be an object/],
    ];
    for (const [body, raw, message] of cases) {
      const res = await post(body, ENV_TOKEN, raw);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect(await t.count('alerts')).toBe(before);
  });

  it('opens an alert matched to its server by instance, with timeline and history; the same fingerprint again updates it', async () => {
    const a = amAlert({ labels: { alertname: 'NodeDiskFilling', severity: 'page', instance: '10.72.0.1:9100', mountpoint: '/var', service: 'postgres' } });
    const res = await post(payload([a]));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ opened: 1, updated: 0, resolved: 0, ignored: 0 });
    const id = res.body.result.alertIds[0];
    const got = (await t.call('GET', `/api/alerts/${id}`, { cookie: user })).body.result;
    expect(got).toMatchObject({
      serverId,
      hostname: 'web-am-1',
      instance: '10.72.0.1',
      alertname: 'NodeDiskFilling',
      severity: 'critical',
      status: 'firing',
      type: 'alertmanager_alert',
      source: 'alertmanager',
      summary: 'Load is high',
      description: 'Load 12 \\> 8 for \\*\\*5m\\*\\*',
      mountpoint: '/var',
      service: 'postgres',
      createdAt: '2026-11-25T03:00:00.123Z',
      generatorURL: a.generatorURL,
      labels: a.labels,
    });
    expect(got.timeline).toEqual([expect.objectContaining({ type: 'firing', note: 'Firing in Alertmanager (receiver opsdeck).', by: null })]);
    // Listed with the server's alerts.
    const list = await t.call('POST', '/api/alerts/all', { cookie: user, body: { filter: { serverId: { eq: serverId } } } });
    expect(list.body.result.data.map((x: { _id: string }) => x._id)).toContain(id);
    // The shared history names Alertmanager as who did it.
    const rec = await t.call('GET', `/api/command-history/${res.headers['x-opsdeck-record']}`, { cookie: admin });
    expect(rec.body.result).toMatchObject({ actorKind: 'system', username: 'Alertmanager', outcome: 'ok', targets: [{ kind: 'alert', id }] });

    // Alertmanager repeats the notification, with a new summary: the same alert, no new timeline entry.
    const again = await post(payload([{ ...a, annotations: { summary: 'Disk fills in 2h' } }]));
    expect(again.body.result).toMatchObject({ opened: 0, updated: 1 });
    expect(await alertsBy(a.fingerprint)).toHaveLength(1);
    const after = (await t.call('GET', `/api/alerts/${id}`, { cookie: user })).body.result;
    expect(after.summary).toBe('Disk fills in 2h');
    expect(after.timeline).toHaveLength(1);
    // The evaluator leaves it alone: it has no rule, and is not the evaluator's to resolve.
    await t.app.alerting.tick();
    expect((await alertsBy(a.fingerprint))[0]!.status).toBe('firing');
  });

  it('keeps an alert no server matches, with the instance as its host; notes and acknowledgements work; Alertmanager resolves it', async () => {
    const a = amAlert({ labels: { alertname: 'ProbeFailed', instance: 'https://shop.example.com/health', severity: 'warning' } });
    const opened = await post(payload([a]));
    const id = opened.body.result.alertIds[0];
    const row = (await alertsBy(a.fingerprint))[0]!;
    expect(row).toMatchObject({ server_id: null, hostname: 'shop.example.com', status: 'firing' });
    const ack = await t.call('POST', `/api/alerts/${id}/ack`, { cookie: user, body: { note: 'on it' } });
    expect(ack.status, JSON.stringify(ack.body)).toBe(200);
    const note = await t.call('PATCH', `/api/alerts/${id}`, { cookie: user, body: { status: 'firing', log: 'Checked the **load balancer**' } });
    expect(note.status, JSON.stringify(note.body)).toBe(200);
    const resolved = await post(payload([{ ...a, status: 'resolved', endsAt: '2026-11-25T03:10:00Z' }], { status: 'resolved' }));
    expect(resolved.body.result).toMatchObject({ resolved: 1 });
    const got = (await t.call('GET', `/api/alerts/${id}`, { cookie: user })).body.result;
    expect(got).toMatchObject({ status: 'resolved', resolvedAt: '2026-11-25T03:10:00.000Z', acknowledgement: null });
    expect(got.timeline.map((e: { type: string }) => e.type)).toEqual(['firing', 'acknowledged', 'playbook_action', 'resolved']);
    expect(got.timeline.at(-1).note).toBe('Resolved in Alertmanager.');
    // A late repeat of the same occurrence does not reopen it; a new occurrence is a new alert.
    expect((await post(payload([a]))).body.result).toMatchObject({ opened: 0, ignored: 1 });
    expect((await post(payload([{ ...a, status: 'resolved' }]))).body.result).toMatchObject({ resolved: 0, ignored: 1 });
    const next = await post(payload([{ ...a, startsAt: '2026-11-25T04:00:00Z' }]));
    expect(next.body.result).toMatchObject({ opened: 1 });
    expect((await alertsBy(a.fingerprint)).map((r) => r.status)).toEqual(['resolved', 'firing']);
  });

  it('an occurrence an operator resolved in Opsdeck stays resolved when Alertmanager repeats it', async () => {
    const a = amAlert();
    const id = (await post(payload([a]))).body.result.alertIds[0];
    expect((await t.call('PATCH', `/api/alerts/${id}`, { cookie: user, body: { status: 'resolved', log: 'Fixed by hand' } })).status).toBe(200);
    expect((await post(payload([a]))).body.result).toMatchObject({ opened: 0, ignored: 1 });
    expect((await alertsBy(a.fingerprint)).map((r) => r.status)).toEqual(['resolved']);
  });

  it('ignores the alerts Opsdeck pushed itself (the loop Alertmanager could close)', async () => {
    const own = amAlert({ annotations: { summary: 'x', opsdeck_alert_id: '00000000-0000-4000-8000-000000000000' } });
    expect((await post(payload([own]))).body.result).toMatchObject({ opened: 0, ignored: 1 });
    expect(await alertsBy(own.fingerprint)).toHaveLength(0);
  });

  it('an admin token: created once (shown once), then accepted beside the environment one; others cannot create it; removed, it stops working', async () => {
    expect((await t.call('POST', `${URL}/token`, { cookie: user })).status).toBe(403);
    const created = await t.call('POST', `${URL}/token`, { cookie: admin });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const token = created.body.result.token as string;
    expect(token).toMatch(/^amr_[A-Za-z0-9_-]{43}$/);
    const status = (await t.call('GET', URL, { cookie: user })).body.result;
    expect(status.receiver).toMatchObject({ enabled: true, fromEnvironment: true, token: { prefix: token.slice(0, 8) } });
    expect(JSON.stringify(status)).not.toContain(token);
    expect((await post(payload([amAlert()]), token)).status).toBe(200);
    expect((await post(payload([amAlert()]), ENV_TOKEN)).status).toBe(200);
    expect((await t.call('DELETE', `${URL}/token`, { cookie: admin })).status).toBe(200);
    expect((await post(payload([amAlert()]), token)).status).toBe(401);
    expect((await t.call('DELETE', `${URL}/token`, { cookie: admin })).status).toBe(404);
  });
});
