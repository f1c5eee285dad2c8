import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { haveAlertmanager, startAlertmanagerCluster, startWebhookSink, type AmInstance } from './alertmanager-cluster';
import { waitFor } from './processes';

const PUBLIC = 'http://opsdeck.example:3000';
const RECEIVER_TOKEN = 'push-test-receiver-token';

/**
 * Issue 15 §2: Opsdeck's alerts reach a real Alertmanager cluster (Debian's
 * prometheus-alertmanager 0.25, two instances gossiping on loopback) and, through it, a webhook
 * receiver: once per change even though both instances hold the alert, and still once with one
 * instance killed. Received alerts are never pushed back; silences are mirrored.
 */
// On PGlite and on PostgreSQL (the push reads alerts with its own SQL, and on PostgreSQL another
// process may write them): each backend gets its own cluster and receiver, so nothing carries over.
describe.skipIf(!haveAlertmanager).each(await backends())('Alertmanager push to a real two-instance cluster on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  let sink: Awaited<ReturnType<typeof startWebhookSink>>;
  let cluster: Awaited<ReturnType<typeof startAlertmanagerCluster>>;
  let a: AmInstance;
  let b: AmInstance;
  let server: { _id: string; hostname: string; ipaddress: string };

  /** An Opsdeck alert as the evaluator writes it (its updated_at now: the push picks it up within a poll). */
  async function openAlert(alertname: string, extra: { mountpoint?: string; service?: string } = {}): Promise<string> {
    const [row] = await t.database.query<{ id: string }>(
      `insert into alerts (server_id, hostname, instance, alertname, type, severity, status, summary, description, mountpoint, service, subject)
       values ($1, $2, $3, $4, 'resouce_alert', 'critical', 'firing', $5, $6, $7, $8, $4) returning id`,
      [server._id, server.hostname, server.ipaddress, alertname, `${alertname} on ${server.hostname}`, `Disk usage is **97%** on ${server.hostname}`, extra.mountpoint ?? null, extra.service ?? null],
    );
    return row!.id;
  }
  const notificationsFor = (alertname: string, status: 'firing' | 'resolved') =>
    sink.received.filter((n) => n.alerts.some((x) => x.labels.alertname === alertname && x.status === status));
  const amAlerts = async (am: AmInstance) => (await (await fetch(`${am.url}/api/v2/alerts`)).json()) as { labels: Record<string, string>; status: { state: string } }[];

  beforeAll(async () => {
    sink = await startWebhookSink();
    cluster = await startAlertmanagerCluster({ size: 2, routeTo: sink.url });
    [a, b] = cluster.instances as [AmInstance, AmInstance];
    t = await startTestApp(backend, {
      alertmanager: { urls: [a.url, b.url], mirrorSilences: true, resendS: 5, pollMs: 200, runbookUrl: 'https://wiki.example/runbooks/{alertname}', publicUrl: PUBLIC, receiverToken: RECEIVER_TOKEN },
    });
    const u = await t.addUser({ role: 'admin' });
    admin = await t.signIn(u.email, u.password);
    const s = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'web-push-1', ipaddress: '10.73.0.1', operating_system: 'linux', isAgentConfigured: true } });
    server = s.body.result;
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
    await sink?.close();
  });

  it('a firing alert reaches the receiver once through the cluster, with the labels, annotations and link; its resolution follows', async () => {
    const id = await openAlert('DiskAlmostFull', { mountpoint: '/var' });
    const [note] = await waitFor('the firing notification', async () => notificationsFor('DiskAlmostFull', 'firing').length > 0 && notificationsFor('DiskAlmostFull', 'firing'), 20_000, 100);
    const alert = note!.alerts.find((x) => x.labels.alertname === 'DiskAlmostFull')!;
    expect(note!.version).toBe('4');
    expect(alert.labels).toEqual({ alertname: 'DiskAlmostFull', severity: 'critical', hostname: 'web-push-1', instance: '10.73.0.1', server_id: server._id, type: 'resouce_alert', mountpoint: '/var' });
    expect(alert.annotations).toEqual({
      summary: 'DiskAlmostFull on web-push-1',
      description: 'Disk usage is 97% on web-push-1',
      runbook_url: 'https://wiki.example/runbooks/DiskAlmostFull',
      opsdeck_alert_id: id,
    });
    expect(alert.generatorURL).toBe(`${PUBLIC}/notifications/show/${id}`);
    // Both instances hold it (alerts are not gossiped: Opsdeck posts to each) …
    for (const am of [a, b]) expect((await amAlerts(am)).some((x) => x.labels.alertname === 'DiskAlmostFull')).toBe(true);
    // … and the cluster sent it once: the second instance saw the first's notification log.
    await new Promise((r) => setTimeout(r, 2500));
    expect(notificationsFor('DiskAlmostFull', 'firing')).toHaveLength(1);

    await t.database.query(`update alerts set status = 'resolved', resolved_at = now(), updated_at = now() where id = $1`, [id]);
    const [resolved] = await waitFor('the resolved notification', async () => notificationsFor('DiskAlmostFull', 'resolved').length > 0 && notificationsFor('DiskAlmostFull', 'resolved'), 20_000, 100);
    expect(resolved!.alerts.find((x) => x.labels.alertname === 'DiskAlmostFull')!.endsAt).not.toMatch(/^0001/);
  });

  it('with one instance killed, a new alert still reaches the receiver exactly once; the push reports the dead one', async () => {
    await a.kill();
    await openAlert('ServiceDown', { service: 'nginx' });
    await waitFor('the notification from the surviving instance', async () => notificationsFor('ServiceDown', 'firing').length > 0, 20_000, 100);
    await new Promise((r) => setTimeout(r, 1500));
    expect(notificationsFor('ServiceDown', 'firing')).toHaveLength(1);
    const status = (await t.call('GET', '/api/integrations/alertmanager', { cookie: admin })).body.result.push;
    expect(status.instances).toEqual([
      expect.objectContaining({ url: a.url, ok: false, lastError: expect.stringMatching(/fetch failed|ECONNREFUSED/) }),
      expect.objectContaining({ url: b.url, ok: true, lastError: null }),
    ]);
  });

  it('never pushes back an alert received from Alertmanager (no loop)', async () => {
    const res = await t.call('POST', '/api/integrations/alertmanager', {
      headers: { authorization: `Bearer ${RECEIVER_TOKEN}` },
      body: { version: '4', alerts: [{ status: 'firing', labels: { alertname: 'FromPrometheus', instance: '10.73.0.1:9100' }, annotations: {}, startsAt: new Date().toISOString(), fingerprint: 'loop-fp-1' }] },
    });
    expect(res.body.result.opened).toBe(1);
    // An Opsdeck alert changed after it: once it is in Alertmanager, the received one would be too.
    await openAlert('AfterTheReceivedOne');
    await waitFor('the later Opsdeck alert in Alertmanager', async () => (await amAlerts(b)).some((x) => x.labels.alertname === 'AfterTheReceivedOne'), 20_000, 100);
    // A full resend happens every 5 s here: wait one out too.
    const since = Date.now();
    await waitFor('a full resend', async () => {
      const s = (await t.call('GET', '/api/integrations/alertmanager', { cookie: admin })).body.result.push;
      return s.lastFullAt && Date.parse(s.lastFullAt) > since;
    }, 20_000, 200);
    expect((await amAlerts(b)).some((x) => x.labels.alertname === 'FromPrometheus')).toBe(false);
    expect(notificationsFor('FromPrometheus', 'firing')).toHaveLength(0);
  });

  it('mirrors Opsdeck silences as Alertmanager silences (to the instance that answers), and expires them with ours', async () => {
    const created = await t.call('POST', '/api/silences', {
      cookie: admin,
      body: { matchers: [{ name: 'hostname', op: '=', value: 'web-push-1' }, { name: 'alertname', op: '=~', value: 'Disk.*' }], durationSeconds: 3600, comment: 'disk swap' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sid = created.body.result._id as string;
    const unmirrorable = await t.call('POST', '/api/silences', { cookie: admin, body: { matchers: [{ name: 'label.env', op: '=', value: 'prod' }], durationSeconds: 3600, comment: 'env' } });
    const mirrored = async () =>
      ((await (await fetch(`${b.url}/api/v2/silences`)).json()) as { id: string; matchers: { name: string; value: string; isRegex: boolean; isEqual: boolean }[]; comment: string; createdBy: string; status: { state: string } }[]).filter((s) =>
        s.comment.endsWith(`[opsdeck silence ${sid}]`),
      );
    const [am] = await waitFor('the mirrored silence', async () => (await mirrored()).filter((s) => s.status.state === 'active').length === 1 && (await mirrored()), 20_000, 200);
    expect(am!.matchers).toEqual(
      expect.arrayContaining([
        { name: 'hostname', value: 'web-push-1', isRegex: false, isEqual: true },
        { name: 'alertname', value: 'Disk.*', isRegex: true, isEqual: true },
      ]),
    );
    expect(am!.createdBy).toMatch(/\(Opsdeck\)$/);
    expect(am!.comment).toBe(`disk swap [opsdeck silence ${sid}]`);
    const status = await waitFor('the status naming the silence it cannot mirror', async () => {
      const s = (await t.call('GET', '/api/integrations/alertmanager', { cookie: admin })).body.result.push.silences;
      return s.skipped.length > 0 && s;
    }, 10_000, 200);
    expect(status.mirrored[sid]).toBe(am!.id);
    expect(status.skipped).toEqual([{ id: unmirrorable.body.result._id, reason: expect.stringMatching(/server label/) }]);
    // A silenced alert is silenced in Alertmanager too.
    await openAlert('DiskSilenced');
    await waitFor('the alert suppressed by the mirrored silence', async () => (await amAlerts(b)).find((x) => x.labels.alertname === 'DiskSilenced')?.status.state === 'suppressed', 20_000, 200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(notificationsFor('DiskSilenced', 'firing')).toHaveLength(0);

    expect((await t.call('POST', `/api/silences/${sid}/expire`, { cookie: admin })).status).toBe(200);
    await waitFor('the mirrored silence expired', async () => (await mirrored()).every((s) => s.status.state === 'expired'), 20_000, 200);
  });
});
