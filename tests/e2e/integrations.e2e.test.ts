import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../check-targets';
import { haveAlertmanager, startAlertmanagerCluster, startWebhookSink } from '../monitoring/alertmanager-cluster';
import { waitFor } from '../monitoring/processes';
import { gone, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { startServer, type RunningServer } from './server-process';

/**
 * Issue 15: Notifications › Integrations against a server of its own whose ALERTMANAGER_URL names
 * a real Alertmanager (Debian's prometheus-alertmanager) and an address nothing listens on. The
 * receiver's token is created, rotated and removed from the screen (each through its command,
 * shown once), and the push's status names the instance that takes alerts and the one that fails.
 */
describe.skipIf(!haveAlertmanager)('Notifications › Integrations', () => {
  let server: RunningServer;
  let b: Browser;
  let admin: Awaited<ReturnType<typeof apiSession>>;
  let am: Awaited<ReturnType<typeof startAlertmanagerCluster>>;
  let sink: Awaited<ReturnType<typeof startWebhookSink>>;
  let dead = '';

  beforeAll(async () => {
    sink = await startWebhookSink();
    am = await startAlertmanagerCluster({ size: 1, routeTo: sink.url });
    dead = `http://127.0.0.1:${await closedPort()}`;
    server = await startServer({ env: { ALERTMANAGER_URL: `${am.instances[0]!.url},${dead}`, ALERT_EVAL_INTERVAL: '2' } });
    admin = await apiSession(server.url);
    // An alert to push: a TCP check of a closed port, down at its first result.
    const check = await admin.call('POST', 'checks', { name: 'Closed port', kind: 'tcp', host: '127.0.0.1', port: await closedPort(), intervalSeconds: 10, rules: { down: { timeLimit: 0 } } });
    expect(check.status, JSON.stringify(check.body)).toBe(201);
    b = await openBrowser(server.url);
    await signIn(b.page);
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await am?.stop();
    await sink?.close();
  });

  const receive = (token: string) =>
    fetch(`${server.url}/api/integrations/alertmanager`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ version: '4', alerts: [{ status: 'firing', labels: { alertname: 'FromTheScreenTest' }, annotations: {}, startsAt: new Date().toISOString(), fingerprint: 'screen-fp' }] }),
    }).then((r) => r.status);

  it('shows the receiver URL, creates, rotates and removes the token (shown once), and each Alertmanager instance’s push status', async () => {
    const { page } = b;
    await page.goto('/notifications');
    await page.getByRole('navigation', { name: 'Notifications' }).getByRole('link', { name: 'Integrations' }).click();
    await page.waitForURL((u) => u.pathname === '/notifications/integrations');
    const receiver = page.getByRole('region', { name: 'Alertmanager receiver' });
    await shown(receiver.getByTestId('receiver-url').getByText(`${server.url}/api/integrations/alertmanager`, { exact: true }));
    await shown(receiver.getByTestId('receiver-state').getByText('Off: no token'));
    await shown(receiver.getByText('None created here'));

    // Create: confirmed, then shown once with the YAML to paste.
    const rotate = async (label: string) => {
      await receiver.getByRole('button', { name: label }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Rotate Receiver Token' });
      await confirm.getByRole('button', { name: 'Rotate' }).click();
      await gone(confirm);
      const box = receiver.getByRole('status', { name: 'New receiver token' });
      await shown(box);
      return box;
    };
    let box = await rotate('Create token');
    const first = (await box.getByTestId('revealed-token').textContent())!;
    expect(first).toMatch(/^amr_[\w-]{40,}$/);
    await shown(box.getByText('Copy it now: it is not shown again.'));
    await shown(receiver.getByTestId('receiver-state').getByText('On'));
    await shown(receiver.getByTestId('receiver-token').getByText(`${first.slice(0, 8)}… created by admin`, { exact: false }));
    expect(await receive(first)).toBe(200);

    // Rotate: a new token; the old one stops working at once.
    box = await rotate('Rotate token');
    await expect.poll(async () => box.getByTestId('revealed-token').textContent()).not.toBe(first);
    const second = (await box.getByTestId('revealed-token').textContent())!;
    expect(second).toMatch(/^amr_/);
    expect(await receive(first)).toBe(401);
    expect(await receive(second)).toBe(200);
    // Not shown again after a reload; only its prefix.
    await page.reload();
    await shown(receiver.getByTestId('receiver-token').getByText(`${second.slice(0, 8)}…`, { exact: false }));
    expect(await receiver.getByRole('status', { name: 'New receiver token' }).count()).toBe(0);
    expect(await page.content()).not.toContain(second);

    // The push: the real Alertmanager took the check's alert, the dead address is named failing.
    const push = page.getByRole('region', { name: 'Push to Alertmanager' });
    const instances = push.getByRole('table', { name: 'Alertmanager instances' });
    const row = (url: string) => instances.getByRole('row').filter({ has: page.getByRole('cell', { name: url, exact: true }) });
    await shown(row(am.instances[0]!.url).getByRole('cell', { name: 'OK', exact: true }), 60_000);
    await shown(row(dead).getByRole('cell', { name: 'Failing', exact: true }));
    expect(await row(dead).textContent()).toMatch(/ECONNREFUSED|fetch failed/);
    await waitFor('the check’s alert through Alertmanager', async () => sink.received.some((n) => n.alerts.some((a) => a.labels.type === 'website_alert')), 30_000, 250);

    // Remove: confirmed; the receiver is off again.
    await receiver.getByRole('button', { name: 'Remove token' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove Receiver Token' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await shown(receiver.getByTestId('receiver-state').getByText('Off: no token'));
    expect(await receive(second)).toBe(404);

    expect(await admin.historyMissing(['integration.rotate-token', 'integration.remove-token'], ['integration.rotate-token:ui:ok', 'integration.remove-token:ui:ok'])).toEqual([]);
    const trail = await admin.call('POST', 'command-history/all', { pageNumber: 1, pageSize: 100, filter: { command: { in: ['integration.rotate-token'] } } });
    expect(JSON.stringify(trail.body)).not.toContain(second);
  });
});
