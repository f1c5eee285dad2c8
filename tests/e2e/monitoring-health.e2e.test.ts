/**
 * Never blind without saying so, on the screens (issue 12 §1): a console whose Prometheus does not
 * answer shows the banner naming the cause on the dashboard and the servers list, and an admin
 * chooses on the Notification Groups page who gets "Monitoring backend unreachable".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { freePort, startServer, type RunningServer } from './server-process';

describe('monitoring health on the screens', () => {
  let server: RunningServer;
  let b: Browser;
  let promUrl: string;
  let admin: Awaited<ReturnType<typeof apiSession>>;
  const groupIds: Record<string, string> = {};

  beforeAll(async () => {
    // Nothing listens there: Prometheus is down from the start.
    promUrl = `http://127.0.0.1:${await freePort()}`;
    server = await startServer({ env: { PROMETHEUS_URL: promUrl, SCRAPE_INTERVAL: '1' } });
    admin = await apiSession(server.url);
    for (const [name, emailEnabled] of [
      ['Oncall email', true],
      ['Platform chat', false],
    ] as const) {
      const res = await admin.call('POST', 'notification-groups', { name, emailEnabled, emailList: ['ops@example.com'], slackEnabled: !emailEnabled, slackChannel: emailEnabled ? undefined : '#platform' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      groupIds[name] = (res.body as { result: { _id: string } }).result._id;
    }
    b = await openBrowser(server.url);
    await signIn(b.page);
  }, 180_000);

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  it('shows the banner with the cause on the dashboard and the servers list, linking the meta alert', async () => {
    await b.page.goto('/');
    const banner = b.page.getByTestId('monitoring-banner');
    // Blind after two intervals and the timeout; the banner polls every 15 s.
    await shown(banner, 30_000);
    await shown(banner.getByText('Monitoring is blind: no fresh figures'));
    await shown(banner.getByText(`Prometheus at ${promUrl} did not answer`, { exact: false }));
    await banner.getByRole('link', { name: 'View alert' }).click();
    await b.page.waitForURL('**/notifications/show/**');
    await shown(b.page.getByText('Monitoring backend unreachable').first());
    await b.page.goto('/servers');
    await shown(b.page.getByTestId('monitoring-banner'));
  });

  it('lets an admin choose who gets "Monitoring backend unreachable", and go back to the default', async () => {
    await b.page.goto('/notification-groups');
    const line = b.page.getByTestId('monitoring-alert-groups');
    await shown(line.getByText('goes to Oncall email (default: every group with email on)', { exact: false }));
    await b.page.getByRole('button', { name: 'Change…' }).click();
    const dialog = b.page.getByRole('dialog', { name: 'Monitoring backend alerts' });
    await dialog.locator('label', { hasText: 'Every group with email on (default)' }).click();
    await dialog.locator('label', { hasText: 'Platform chat' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await shown(line.getByText('goes to Platform chat.', { exact: false }));
    expect((await admin.call('GET', 'settings/monitoring-alert-groups')).body.result.groupIds).toEqual([groupIds['Platform chat']]);
    // The command line does the same; --default goes back.
    await commandLine(b.page, 'monitoring.set-alert-groups --default');
    await shown(line.getByText('(default: every group with email on)', { exact: false }));
    expect((await admin.call('GET', 'settings/monitoring-alert-groups')).body.result.groupIds).toBeNull();
    expect(await admin.historyMissing(['monitoring.set-alert-groups'], ['monitoring.set-alert-groups:ui:ok', 'monitoring.set-alert-groups:cmdline:ok'])).toEqual([]);
  });
});
