import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { haveAlertmanager, startAlertmanagerCluster } from '../monitoring/alertmanager-cluster';
import { freePort, havePrometheus, startPrometheus, waitFor, type Proc } from '../monitoring/processes';
import { openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

const ALERT = 'PromE2EAlwaysFiring';

/**
 * Issue 15 §3 end to end: a real Prometheus rule (always firing) → a real Alertmanager → Opsdeck's
 * receiver (with an admin-created token) → an alert an operator sees in the browser, on the
 * server it names by `instance`.
 */
describe.skipIf(!haveAlertmanager || !havePrometheus)('a Prometheus rule through Alertmanager into Opsdeck', () => {
  const baseURL = inject('baseURL');
  let b: Browser;
  let admin: Awaited<ReturnType<typeof apiSession>>;
  let am: Awaited<ReturnType<typeof startAlertmanagerCluster>>;
  let prometheus: Proc & { url: string };
  let serverId = '';

  beforeAll(async () => {
    admin = await apiSession(baseURL);
    const created = await admin.call<{ result: { _id: string } }>('POST', 'servers', { hostname: 'prom-rule-01', ipaddress: '127.0.0.93', operating_system: 'linux' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    serverId = created.body.result._id;
    const token = await admin.call<{ result: { token: string } }>('POST', 'integrations/alertmanager/token');
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    am = await startAlertmanagerCluster({ size: 1, routeTo: `${baseURL}/api/integrations/alertmanager`, routeToToken: token.body.result.token });
    const rules = `groups:
  - name: opsdeck-e2e
    rules:
      - alert: ${ALERT}
        expr: vector(1)
        labels:
          severity: critical
          instance: 127.0.0.93:9100
          team: '<b>db</b> [x](javascript:alert(1))'
        annotations:
          summary: Always firing, from a Prometheus rule
          description: The expression vector(1) always holds.
`;
    // The first send can come before Prometheus has discovered the Alertmanager (it drops it then):
    // resend every second instead of every minute.
    prometheus = startPrometheus({ port: await freePort(), rules, alertmanagers: [am.instances[0]!.url.replace('http://', '')], args: ['--rules.alert.resend-delay=1s'] });
    b = await openBrowser(baseURL);
    await signIn(b.page);
  }, 90_000);
  afterAll(async () => {
    await prometheus?.stop();
    await am?.stop();
    await b?.close();
    // Leave the shared server as it was: no receiver token, no server (its alerts go with it).
    await admin?.call('DELETE', 'integrations/alertmanager/token');
    if (serverId) await admin?.call('DELETE', `servers/${serverId}`);
  });

  it('shows the rule’s alert on the Notifications page and in its drawer, on the server its instance names', async () => {
    const found = await waitFor(
      'the alert in Opsdeck',
      async () => {
        const r = await admin.call<{ result: { data: { _id: string; serverId: string | null; status: string }[] } }>('POST', 'alerts/all', { filter: { alertname: { eq: ALERT } } });
        return r.body.result.data[0];
      },
      45_000,
      250,
    ).catch(async (error: Error) => {
      const inAm = await fetch(`${am.instances[0]!.url}/api/v2/alerts`).then((r) => r.text(), (e: Error) => e.message);
      const rulesNow = await fetch(`${prometheus.url}/api/v1/alerts`).then((r) => r.text(), (e: Error) => e.message);
      throw new Error(`${error.message}\nprometheus alerts: ${rulesNow.slice(0, 1000)}\nprometheus log: ${prometheus.output().slice(-2000)}\nalertmanager alerts: ${inAm.slice(0, 1000)}\nalertmanager log: ${am.instances[0]!.output().slice(-2000)}`);
    });
    expect(found).toMatchObject({ serverId, status: 'firing' });

    await b.page.goto('/notifications');
    await shown(b.page.getByText(ALERT));
    await b.page.goto(`/notifications/show/${found._id}`);
    const drawer = b.page.getByRole('dialog');
    await shown(drawer.getByText('Alertmanager Alert'));
    await shown(drawer.getByText('Always firing, from a Prometheus rule'));
    await shown(drawer.getByText('prom-rule-01').first());
    // Its labels as text (a rule's author and its targets control them), and the way back to the rule.
    const labels = drawer.getByRole('list', { name: 'Alertmanager labels' });
    await shown(labels.getByText(`alertname=${ALERT}`));
    await shown(labels.getByText('team=<b>db</b> [x](javascript:alert(1))'));
    expect(await labels.locator('b, a').count()).toBe(0);
    expect(await drawer.getByRole('link', { name: "Open the rule's expression" }).getAttribute('href')).toMatch(/^http:\/\/.*\/graph\?g0\.expr=vector/);
    // The timeline says where it came from.
    await drawer.getByRole('tab', { name: 'Timeline' }).click();
    await shown(drawer.getByText(/Firing in Alertmanager \(receiver hook\)/));
  });
});
