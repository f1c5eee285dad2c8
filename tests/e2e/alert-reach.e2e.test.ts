import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCheckTargets, type CheckTargets } from '../check-targets';
import { openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { startServer, type RunningServer } from './server-process';

/**
 * Alerts reach someone out of the box (issue 24 §6), as a newcomer meets it: a fresh console
 * (no SMTP_URL, no groups) whose rules notify nobody says so on the dashboard with one step;
 * the step is a command (a group created as the default); the notice then says the group cannot
 * send yet; and an alert's delivery log shows the email it could not send, as it would have gone
 * out. Its own server: a fresh console, evaluating every second, checks as often.
 */
describe('alerts reach someone', () => {
  let server: RunningServer;
  let b: Browser;
  let targets: CheckTargets;
  let admin: Awaited<ReturnType<typeof apiSession>>;

  beforeAll(async () => {
    [server, targets] = await Promise.all([startServer({ env: { ALERT_EVAL_INTERVAL: '1', CHECK_MIN_INTERVAL: '1', SMTP_URL: '', SLACK_BOT_TOKEN: '' } }), startCheckTargets()]);
    admin = await apiSession(server.url);
    const created = await admin.call('POST', 'servers', { hostname: 'reach-web-01', ipaddress: '10.88.0.1', operating_system: 'linux', isAgentConfigured: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    b = await openBrowser(server.url);
    await signIn(b.page);
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await targets?.close();
    await server?.stop();
  });

  it('says on the dashboard that alerts notify nobody, and its one step makes a default group every rule notifies', async () => {
    const { page } = b;
    const notice = page.getByRole('region', { name: 'Alert notifications' });
    await shown(notice.getByRole('heading', { name: 'Alerts notify nobody' }));
    expect(await notice.innerText()).toContain('None of the 8 alert rules has a notification group, and no default group is set');

    await notice.getByRole('button', { name: 'Create a default group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Command palette' });
    const palette = dialog.getByRole('combobox');
    await shown(dialog.getByRole('combobox', { name: 'Name' }));
    await shown(dialog.getByText('Create a default notification group', { exact: true }));
    await palette.fill('Ops');
    await palette.press('Enter');
    await shown(dialog.getByRole('combobox', { name: 'Email List' }));
    await palette.fill('ops@example.com');
    await palette.press('Enter');
    // The rest is optional: (skip) each.
    for (let i = 0; i < 6 && (await palette.isVisible()); i++) await palette.press('Enter').catch(() => undefined);

    await expect.poll(async () => (await admin.call('GET', 'settings/default-notification-group')).body.result.group?.name, { timeout: 10_000 }).toBe('Ops');
    const rules = (await admin.call('POST', 'alert-config/get-alert-config/all', { filter: {} })).body.result.data[0].rules as { notificationGroup: string | null }[];
    const ops = (await admin.call('GET', 'settings/default-notification-group')).body.result.group._id;
    expect(rules.map((r) => r.notificationGroup)).toEqual(rules.map(() => ops));
    expect(await admin.historyMissing(['group.create-default'], ['group.create-default:palette:ok'])).toEqual([]);

    // The group has an address, but this console sends no email: the notice says so, with the next step.
    await shown(notice.getByRole('heading', { name: 'Alerts reach nobody' }));
    expect(await notice.innerText()).toContain('SMTP_URL is not set, so Opsdeck sends no email');
    await shown(notice.getByRole('button', { name: 'Add a channel to Ops' }));
  });

  it("shows on an alert's delivery log the email that could not be sent, with the reason, as it would have gone out", async () => {
    const { page } = b;
    const check = await admin.call('POST', 'checks', { name: 'Shop TCP', kind: 'tcp', host: '127.0.0.1', port: targets.tcpClosedPort, intervalSeconds: 1, rules: { down: { timeLimit: 0 } } });
    expect(check.status, JSON.stringify(check.body)).toBe(201);
    let alertId: string | undefined;
    await expect
      .poll(
        async () => {
          const r = await admin.call<{ result: { data: { _id: string; type: string }[] } }>('POST', 'alerts/all', { pageNumber: 1, pageSize: 25, filter: { type: { eq: 'website_alert' } } });
          alertId = r.body.result.data[0]?._id;
          return alertId;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBeDefined();
    await expect.poll(async () => ((await admin.call('GET', `alerts/${alertId}/deliveries`)).body.result as unknown[]).length, { timeout: 20_000, interval: 500 }).toBeGreaterThan(0);

    await page.goto(`/notifications/show/${alertId}`);
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('tab', { name: 'Timeline' }).click();
    const log = drawer.getByRole('region', { name: 'Delivery log' });
    await shown(log.getByText('SMTP_URL is not set, so Opsdeck sends no email.'));
    await shown(log.getByText('skipped', { exact: true }));
    await log.getByText('Show the email').click();
    const preview = log.getByTestId('message-preview');
    await shown(preview);
    const text = await preview.innerText();
    expect(text).toMatch(/^\[FIRING\] \S+ on Shop TCP \(critical\)/);
    expect(text).toContain(`View the alert: http://localhost:${server.port}/notifications/show/${alertId}`);
  });
});
