import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { commandLine, gone, openBrowser, openPalette, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { freePort, startServer, type RunningServer } from './server-process';

/**
 * Issue 13 "Accessibility": axe-core's WCAG 2.1 A and AA rules over every screen, in light and in
 * dark mode, against a server of its own with content on each screen (the demo fleet for live
 * figures and gauges; alerts, a group, users, a check, a status page with an incident, a silence,
 * a maintenance window and command history written before the screens are visited): an empty
 * screen hides violations. No rule is turned off.
 */
type Session = Awaited<ReturnType<typeof apiSession>>;
type Mode = 'light' | 'dark';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string; failureSummary?: string; name?: string }[];
}

/**
 * Runs axe over the whole document. The page's CSP forbids inline scripts, so the engine is
 * evaluated through the DevTools protocol (page.evaluate) rather than added as a script tag.
 */
async function violations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => {
        // axe shortens the html; the element's label and text say which one it is.
        const el = n.target.length === 1 ? document.querySelector(n.target[0]!) : null;
        const name = el ? `aria-label=${JSON.stringify(el.getAttribute('aria-label'))} text=${JSON.stringify((el.textContent ?? '').trim().slice(0, 80))}` : undefined;
        return { target: n.target, html: n.html, failureSummary: n.failureSummary, name };
      }) }));
  }, TAGS);
}

/** One line per violation and its first targets, so a failure reads without a debugger. */
function report(found: AxeViolation[]): string {
  return found
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes.length} node(s)\n` +
        v.nodes
          .slice(0, 4)
          .map((n) => `    ${n.target.join(' ')} ${n.name ?? n.html.slice(0, 120)}\n      ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()}`)
          .join('\n'),
    )
    .join('\n');
}

/** Waits for the screen to have drawn its content: no skeletons, no busy regions, transitions done. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('.animate-pulse, [aria-busy="true"]'), undefined, { timeout: 15_000 });
  await page.waitForTimeout(400);
}

async function expectNoViolations(page: Page, mode: Mode): Promise<void> {
  // The run is in the mode it claims: the document carries the theme's class.
  expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(mode === 'dark');
  await settle(page);
  const found = await violations(page);
  // Soft: a screen's later views are checked too, so one run lists every violation of the test.
  expect.soft(report(found), `axe found violations on ${page.url()} (${mode})`).toBe('');
}

async function seed(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    const [holder] = await database.query<{ id: string }>(
      `insert into servers (hostname, ipaddress, operating_system, is_agent_configured) values ('a11y-holder', '10.252.0.1', 'linux', false) returning id`,
    );
    await database.query(
      `insert into alerts (server_id, hostname, instance, alertname, description, summary, type, severity, status, subject, created_at, resolved_at)
       select $1, 'a11y-host-' || lpad(g::text, 2, '0'), '10.252.1.' || g || ':9100',
              case when g % 3 = 0 then 'high_disk_usage' when g % 3 = 1 then 'instance_down' else 'high_cpu_usage' end,
              'Host ' || g || ' needs attention', 'Something is wrong on host ' || g, 'resouce_alert',
              case when g % 4 = 0 then 'critical' else 'warning' end,
              case when g <= 8 then 'firing' else 'resolved' end, 'a11y-' || g,
              now() - make_interval(mins => g * 7), case when g <= 8 then null else now() - make_interval(mins => g) end
       from generate_series(1, 12) g`,
      [holder!.id],
    );
    await database.query(`insert into notification_groups (name, description, email_list) values ('A11y Oncall', 'Paged first', array['oncall@example.com', 'lead@example.com'])`);
  } finally {
    await database.close();
  }
}

describe('accessibility (axe-core, WCAG 2.1 AA)', () => {
  let server: RunningServer;
  let admin: Session;
  const ids = { holder: '', alert: '', group: '', server: '', windowsServer: '', check: '', user: '', schedule: '' };

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-e2e-a11y-'));
    await seed(dataDir);
    server = await startServer({
      dataDir,
      env: { DEMO_FLEET: '1', DEMO_FLEET_SIZE: '12', DEMO_FLEET_PORT: String(await freePort()), SCRAPE_INTERVAL: '2', ALERT_EVALUATION: '0' },
    });
    admin = await apiSession(server.url);
    const list = async <T = { _id: string }>(resource: string, filter: Record<string, unknown> = {}) =>
      (await admin.call<{ result: { data: T[] } }>('POST', `${resource}/all`, { pageNumber: 1, pageSize: 50, filter })).body.result.data;

    ids.holder = (await list('servers', { hostname: { eq: 'a11y-holder' } }))[0]!._id;
    ids.alert = (await list('alerts', { status: { eq: 'firing' } }))[0]!._id;
    ids.group = (await list('notification-groups', { name: { eq: 'A11y Oncall' } }))[0]!._id;
    // Figures for the gauges: wait until the demo hosts have been scraped twice (CPU is a rate).
    for (const deadline = Date.now() + 90_000; ; ) {
      const servers = await list<{ _id: string; hostname: string; operating_system: string; isAgentConfigured: boolean }>('servers');
      const web = servers.find((s) => s.hostname === 'web-01');
      const win = servers.find((s) => s.operating_system === 'windows' && s.isAgentConfigured);
      if (web && win) {
        const usage = (await admin.call<{ result: { cpuUsage: number | null } }>('GET', `servers/metrics/usage/${web._id}`)).body.result;
        if (usage?.cpuUsage !== null && usage?.cpuUsage !== undefined) {
          ids.server = web._id;
          ids.windowsServer = win._id;
          break;
        }
      }
      if (Date.now() > deadline) throw new Error('the demo fleet was not scraped in time');
      await new Promise((r) => setTimeout(r, 1000));
    }
    for (const u of ['dana', 'lee', 'sam']) {
      const created = await admin.createUser({ username: `a11y-${u}`, email: `${u}@a11y.example` });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    ids.user = (await admin.findUserByEmail('dana@a11y.example'))!._id;
    // An on-call schedule with two layers (the second only on weekdays, so the timeline has gaps' colour too) and an override.
    const lee = (await admin.findUserByEmail('lee@a11y.example'))!._id;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const schedule = await admin.call('POST', 'oncall-schedules', {
      name: 'A11y rota',
      timeZone: 'Europe/London',
      layers: [
        { name: 'primary', participants: [ids.user, lee], shift: { length: 1, unit: 'days' }, start: yesterday, handoff: '09:00', restrictions: [{ type: 'daily', from: '08:00', to: '22:00' }] },
        { name: 'office', participants: [lee], shift: { length: 1, unit: 'weeks' }, start: yesterday, handoff: '09:00', restrictions: [{ type: 'daily', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' }] },
      ],
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    ids.schedule = schedule.body.result._id;
    const coverFrom = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000);
    expect((await admin.call('POST', `oncall-schedules/${ids.schedule}/overrides`, { user: ids.user, start: coverFrom.toISOString(), end: new Date(coverFrom.getTime() + 6 * 3_600_000).toISOString() })).status).toBe(201);
    const check = await admin.call('POST', 'checks', { name: 'a11y-probe', kind: 'tcp', host: '127.0.0.1', port: 9, intervalSeconds: 3600, paused: true });
    expect(check.status, JSON.stringify(check.body)).toBe(201);
    ids.check = check.body.result._id;
    const page = await admin.call('POST', 'status-pages', {
      slug: 'a11y-status',
      title: 'A11y status',
      description: 'What our customers use',
      groups: [
        { name: 'Core', items: [{ kind: 'server', id: ids.server, displayName: 'Web' }] },
        { name: 'Probes', items: [{ kind: 'check', id: ids.check, displayName: 'Probe' }] },
      ],
    });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    expect((await admin.call('POST', `status-pages/post/${page.body.result._id}`, { body: 'We see **slow pages**; a fix is rolling out.' })).status).toBe(201);
    const silence = await admin.call('POST', 'silences', { matchers: [{ name: 'hostname', op: '=~', value: 'a11y-host-0.*' }], durationSeconds: 3600, comment: 'Rack move' });
    expect(silence.status, JSON.stringify(silence.body)).toBe(201);
    const now = Date.now();
    const windowRes = await admin.call('POST', 'maintenance-windows', {
      name: 'Patch night',
      serverIds: [ids.server],
      startsAt: new Date(now + 86_400_000).toISOString(),
      endsAt: new Date(now + 86_400_000 + 7_200_000).toISOString(),
      timezone: 'UTC',
      rrule: 'FREQ=WEEKLY',
    });
    expect(windowRes.status, JSON.stringify(windowRes.body)).toBe(201);
    expect((await admin.call('PATCH', `alerts/${ids.alert}`, { status: 'firing', log: 'Looking into it' })).status).toBeLessThan(300);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  describe.each(['light', 'dark'] as const)('%s mode', (mode) => {
    let b: Browser;
    const check = () => expectNoViolations(b.page, mode);
    const visit = async (path: string, ready: (page: Page) => Promise<void>) => {
      await b.page.goto(path);
      await ready(b.page);
      await check();
    };
    const heading = (name: string | RegExp, level = 1) => (page: Page) => shown(page.getByRole('heading', { name, level }));
    const dialog = (name: string | RegExp) => (page: Page) => shown(page.getByRole('dialog', { name }));

    beforeAll(async () => {
      b = await openBrowser(server.url, { colorScheme: mode });
    });
    afterAll(async () => {
      await b?.close();
    });

    it('sign-in', async () => {
      await visit('/login', heading('Opsdeck'));
    });
    it('signed-out messages', async () => {
      await visit('/logout', (page) => shown(page.getByText('You are now logged out. Kindly log in again from the portal')));
      await visit('/session-expired', (page) => shown(page.getByText('Session Expired. Kindly try to log in through the portal.')));
    });
    it('public status page', async () => {
      await visit('/status/a11y-status', heading('A11y status'));
    });
    it('dashboard', async () => {
      await signIn(b.page);
      await shown(b.page.getByRole('article', { name: 'Instance Summary', exact: true }));
      await shown(b.page.getByRole('article', { name: 'Instance Down', exact: true }).getByRole('row').filter({ hasText: 'a11y-host-01' }));
      await check();
    });
    it('servers list, cards and table', async () => {
      await visit('/servers', (page) => shown(page.getByText('web-01')));
      await visit('/servers?view=table', (page) => shown(page.getByRole('row').filter({ hasText: 'web-01' })));
    });
    for (const tab of ['overview', 'cpu', 'memory', 'network', 'disk', 'services', 'notifications', 'alerts-config']) {
      it(`server detail, ${tab} tab`, async () => {
        await visit(`/servers/show/${ids.server}?tab=${tab}`, heading('web-01'));
      });
    }
    it('server detail of a Windows host', async () => {
      await visit(`/servers/show/${ids.windowsServer}`, (page) => shown(page.getByRole('heading', { level: 1 })));
    });
    it('notifications: cards, table and an open alert drawer', async () => {
      await visit('/notifications', (page) => shown(page.getByRole('article').filter({ hasText: 'a11y-host-01' })));
      await visit('/notifications?view=table', (page) => shown(page.getByRole('row').filter({ hasText: 'a11y-host-01' })));
      await visit(`/notifications/show/${ids.alert}`, dialog(/./));
    });
    it('notification groups and a group drawer', async () => {
      await visit('/notification-groups', (page) => shown(page.getByRole('row').filter({ hasText: 'A11y Oncall' })));
      await visit(`/notification-groups/show/${ids.group}`, dialog(/./));
      await visit(`/notification-groups/edit/${ids.group}`, dialog('Update Notification Group'));
    });
    it('users and a user drawer', async () => {
      await visit('/users', (page) => shown(page.getByText('a11y-dana')));
      await visit(`/users/show/${ids.user}`, dialog(/./));
    });
    it('account settings', async () => {
      await b.page.goto('/');
      await b.page.getByRole('button', { name: 'admin', exact: true }).click();
      await dialog('Account Settings')(b.page);
      await check();
      await b.page.keyboard.press('Escape');
      await gone(b.page.getByRole('dialog', { name: 'Account Settings' }));
    });
    it('checks and a check', async () => {
      await visit('/checks', (page) => shown(page.getByRole('row').filter({ hasText: 'a11y-probe' })));
      await visit(`/checks/show/${ids.check}`, heading('a11y-probe'));
    });
    it('silences, maintenance list and calendar, integrations', async () => {
      await visit('/notifications/silences', (page) => shown(page.getByRole('row').filter({ hasText: 'Rack move' })));
      await visit('/notifications/maintenance', (page) => shown(page.getByRole('cell', { name: 'Patch night' })));
      await visit('/notifications/maintenance?view=calendar', (page) => shown(page.getByRole('table')));
      await visit('/notifications/integrations', heading('Notifications'));
    });
    it('on call: the schedules, one schedule with a range chosen on its timeline, and a feed URL shown', async () => {
      await visit('/oncall', (page) => shown(page.getByRole('row').filter({ hasText: 'A11y rota' })));
      // The schedule is checked with a range chosen (selected hours, the status that says so) and with a feed URL shown.
      await b.page.goto(`/oncall/${ids.schedule}`);
      const grid = b.page.getByRole('grid', { name: 'On-call timeline, next two weeks' });
      await shown(grid);
      await grid.locator('[role="gridcell"][tabindex="0"]').focus();
      await b.page.keyboard.press('ArrowDown');
      await b.page.keyboard.press('Shift+ArrowRight');
      await b.page.keyboard.press('Shift+ArrowRight');
      await shown(grid.locator('[aria-selected="true"]'));
      await check();
      await b.page.getByRole('button', { name: 'Make feed URL' }).click();
      await shown(b.page.getByRole('textbox', { name: 'Calendar feed of A11y rota URL' }));
      await check();
      await b.page.getByRole('button', { name: 'Revoke feed URL' }).click();
      await shown(b.page.getByText('No feed URL yet.'));
    });
    it('status pages list', async () => {
      await visit('/status-pages', (page) => shown(page.getByRole('row').filter({ hasText: '/status/a11y-status' })));
    });
    it('not-found page', async () => {
      await visit('/no-such-screen', heading('Page not found'));
    });
    it('pinned widgets, empty and with widgets', async () => {
      await visit('/pinned-widgets', heading('No Pinned Widgets Found', 2));
      await commandLine(b.page, 'widget.pin web-01 memory "RAM Used" --refresh 1m');
      // The command looks web-01 up through the API before it stores the widget: wait for the
      // widget here, or the reload below cancels the command. Under load it did (a CI failure,
      // reproduced with the page showing "No Pinned Widgets Found").
      await shown(b.page.getByRole('region', { name: 'RAM Used' }));
      await b.page.keyboard.press('Escape');
      await visit('/pinned-widgets', (page) => shown(page.getByRole('region', { name: 'RAM Used' }).getByRole('meter', { name: 'RAM Used' }), 30_000));
      await commandLine(b.page, 'widget.remove "RAM Used"');
      await shown(b.page.getByRole('heading', { name: 'No Pinned Widgets Found', level: 2 }));
      await b.page.keyboard.press('Escape');
    }, 120_000);
    it('forms, drawers and confirmations', async () => {
      const page = b.page;
      await visit('/servers/create', dialog(/./));
      await visit(`/servers/edit/${ids.server}`, (p) => shown(p.getByRole('dialog').getByRole('textbox').first()));
      await visit('/servers?view=table', (p) => shown(p.getByRole('row').filter({ hasText: 'web-01' })));
      await page.getByRole('button', { name: 'Delete web-01' }).click();
      await dialog('Delete Server')(page);
      await check();
      await page.keyboard.press('Escape');
      await visit('/users/create', dialog('Add new User'));
      await visit('/notification-groups/create', dialog('Create Notification Group'));
      await visit('/checks/create', dialog('Create Check'));
      await visit(`/checks/edit/${ids.check}`, (p) => shown(p.getByRole('dialog', { name: 'Update Check' }).getByRole('textbox').first()));
      await visit('/status-pages/create', dialog(/./));
      await visit('/pinned-widgets/create', dialog('Add New Widget'));
      await visit('/notifications/silences', (p) => shown(p.getByRole('row').filter({ hasText: 'Rack move' })));
      await page.getByRole('button', { name: 'New silence' }).click();
      await dialog('New silence')(page);
      await check();
      await page.keyboard.press('Escape');
      await visit('/notifications/maintenance', (p) => shown(p.getByRole('cell', { name: 'Patch night' })));
      await page.getByRole('button', { name: 'Edit Patch night' }).click();
      await shown(page.getByRole('dialog', { name: 'Edit maintenance window' }).getByRole('textbox', { name: 'Name' }));
      await check();
      await page.keyboard.press('Escape');
    });
    it('server detail of a server whose agent is not configured', async () => {
      await visit(`/servers/show/${ids.holder}`, heading('a11y-holder'));
    });
    it('history and the incident report', async () => {
      await b.page.goto('/');
      await shown(b.page.getByRole('article', { name: 'Instance Summary', exact: true }));
      // Records with targets and a failure, as the history shows them during an incident.
      await commandLine(b.page, 'server.toggle-maintenance web-01 on');
      await shown(b.page.getByText('alarms are suppressed'));
      await commandLine(b.page, 'server.toggle-maintenance web-01 off');
      await shown(b.page.getByText('alarms are raised again'));
      await commandLine(b.page, 'server.delete no-such-host-anywhere --acknowledge');
      await shown(b.page.getByText('No server matches "no-such-host-anywhere"'));
      await b.page.keyboard.press('Escape');
      await b.page.locator('body').click({ position: { x: 5, y: 5 } });
      await b.page.keyboard.press('Alt+h');
      const panel = b.page.getByRole('dialog', { name: 'Command history' });
      await shown(panel.getByText(/toggle-maintenance/));
      await check();
      await panel.getByRole('button', { name: 'Incident report' }).click();
      await b.page.waitForURL((url) => url.pathname === '/incident-report');
      await shown(b.page.getByRole('article', { name: 'Report preview' }).getByRole('heading', { level: 1 }));
      await check();
    });
    it('command palette, command line and the ? overview', async () => {
      await b.page.goto('/');
      await shown(b.page.getByRole('article', { name: 'Instance Summary', exact: true }));
      const input = await openPalette(b.page);
      await input.fill('web');
      await shown(b.page.getByRole('option').first());
      await check();
      await b.page.keyboard.press('Escape');
      await commandLine(b.page, 'alert.resolve no-such-alert');
      await shown(b.page.getByText(/no-such-alert/).last());
      await check();
      await b.page.keyboard.press('Escape');
      // A destructive confirmation, named and declined.
      const input2 = await openPalette(b.page);
      await input2.fill('Delete user');
      await shown(b.page.getByRole('option', { name: /Delete user/ }));
      await input2.press('Enter');
      await input2.fill('a11y-sam');
      await shown(b.page.getByRole('option', { name: /a11y-sam/ }));
      await input2.press('Enter');
      const confirm = b.page.getByRole('alertdialog', { name: 'Delete User' });
      await shown(confirm.getByText('Are you sure to delete this user?'));
      await check();
      await confirm.getByRole('button', { name: 'No' }).click();
      await gone(confirm);
      await b.page.locator('body').click({ position: { x: 5, y: 5 } });
      await b.page.keyboard.press('?');
      await dialog('Keyboard shortcuts')(b.page);
      await check();
    });
  });
});
