import { readFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine, gone, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { freePort, startServer, type RunningServer } from './server-process';

/**
 * Alert triage (issue 4 §5–§7, SPEC §2 Notifications and the alert drawer) against a server of
 * its own: exporters this test controls (node_exporter text whose disk and memory figures it
 * sets), scrapes and evaluations every 2 s, and a real SMTP server in-process. Alerts are made the
 * way production makes them: a host crosses a rule's threshold for the rule's grace period.
 */

interface Mail {
  to: string[];
  raw: string;
}
interface ApiAlert {
  _id: string;
  hostname: string;
  alertname: string;
  status: string;
  severity: string;
  instance: string;
}
type Session = Awaited<ReturnType<typeof apiSession>>;

const FIXTURE = readFileSync(new URL('../../server/monitoring/fixtures/node-exporter-scrape1.prom', import.meta.url), 'utf8');
const DISK_SIZE = 2.70553174016e11;
const MEM_TOTAL = 2.5276063744e10;

/** A node_exporter stand-in: the fixture with the root filesystem and memory figures we choose. */
function exporter(figures: { disk: number; memory: number }) {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') return res.writeHead(404).end();
    const text = FIXTURE.replace(/^node_filesystem_avail_bytes\{device="\/dev\/vda",fstype="ext4",mountpoint="\/"\} .*$/m, `node_filesystem_avail_bytes{device="/dev/vda",fstype="ext4",mountpoint="/"} ${DISK_SIZE * (1 - figures.disk / 100)}`).replace(
      /^node_memory_MemAvailable_bytes .*$/m,
      `node_memory_MemAvailable_bytes ${MEM_TOTAL * (1 - figures.memory / 100)}`,
    );
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(text);
  });
  return { server, figures };
}

/** Enough of RFC 5322 and quoted-printable to read what nodemailer writes. */
function decode(raw: string): string {
  const body = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return body.replace(/\r\n/g, '\n');
}

const card = (page: Page, name: string, host: string) => page.getByRole('article', { name: `${name} · ${host}`, exact: true });
const drawerOf = (page: Page, name: string, host: string) => page.getByRole('dialog', { name: `Alert ${name} on ${host}` });
const row = (page: Page, name: string, host: string) => page.getByRole('row').filter({ has: page.getByRole('button', { name: `View ${name} on ${host}` }) });

async function alerts(admin: Session, filter: Record<string, unknown> = {}): Promise<ApiAlert[]> {
  return (await admin.call<{ result: { data: ApiAlert[] } }>('POST', 'alerts/all', { pageNumber: 1, pageSize: 100, filter })).body.result.data;
}
async function waitForAlert(admin: Session, hostname: string, alertname: string, timeoutMs: number): Promise<ApiAlert> {
  let found: ApiAlert | undefined;
  await expect
    .poll(async () => (found = (await alerts(admin, { hostname: { eq: hostname }, alertname: { eq: alertname } }))[0]), { timeout: timeoutMs, interval: 1000 })
    .toBeDefined();
  return found!;
}

describe('notifications', () => {
  let server: RunningServer;
  let admin: Session;
  let b: Browser;
  let smtp: SMTPServer;
  const mails: Mail[] = [];
  const disk = exporter({ disk: 50, memory: 40 });
  const mem = exporter({ disk: 50, memory: 40 });
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: decode(Buffer.concat(chunks).toString('utf8')) });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    for (const e of [disk, mem]) await new Promise<void>((resolve) => e.server.listen(0, '127.0.0.1', resolve));

    server = await startServer({
      env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'Opsdeck <opsdeck@example.com>', SCRAPE_INTERVAL: '2', ALERT_EVAL_INTERVAL: '2' },
    });
    admin = await apiSession(server.url);
    expect((await admin.createUser({ username: 'viewer', email: 'viewer@example.com', password: 'viewer-password', role: 'user' })).status).toBe(201);

    const group = await admin.call<{ result: { _id: string } }>('POST', 'notification-groups', { name: 'Disk on-call', emailEnabled: true, emailList: ['oncall@example.com'] });
    expect(group.status).toBe(201);
    const port = (s: HttpServer) => (s.address() as AddressInfo).port;
    const hosts = [
      { hostname: 'e2e-disk-01', agentPort: port(disk.server) },
      { hostname: 'e2e-mem-01', agentPort: port(mem.server) },
      // Nothing listens there: the host is down from its first scrape.
      { hostname: 'e2e-gone-01', agentPort: await freePort() },
    ];
    for (const h of hosts) {
      const created = await admin.call<{ result: { _id: string } }>('POST', 'servers', { ...h, ipaddress: '127.0.0.1', operating_system: 'linux', isAgentConfigured: true });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids[h.hostname] = created.body.result._id;
      // Shortest grace (60 s, SPEC §5) on the rules this test drives; the critical disk rule mails the group.
      const config = (await admin.call<{ result: { data: { _id: string; rules: Record<string, any>[] }[] } }>('POST', 'alert-config/get-alert-config/all', { filter: { serverId: { eq: created.body.result._id } } })).body.result.data[0]!;
      const rules = config.rules.map((r) => {
        const { metric: _m, ...rest } = r;
        if (r.name === 'critical_disk_usage') return { ...rest, timeLimit: 60, notificationGroup: group.body.result._id };
        if (r.name === 'high_disk_usage' || r.name === 'high_memory_usage') return { ...rest, timeLimit: 60, threshold: r.name === 'high_disk_usage' ? 85 : 90 };
        return rest;
      });
      const updated = await admin.call('PATCH', `alert-config/update-alert-config/${config._id}`, { rules });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    }
    b = await openBrowser(server.url);
    await signIn(b.page);
  }, 300_000);

  afterAll(async () => {
    await b?.close();
    await server?.stop();
    for (const e of [disk, mem]) e.server.close();
    await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  });

  it('a host crosses a threshold, the alert appears, is resolved from the command line with a note, the timeline shows it and the email arrived', async () => {
    const { page } = b;
    // The disk fills up and the memory runs out; the third host has been down all along.
    disk.figures.disk = 97;
    mem.figures.memory = 96;
    const crossedAt = Date.now();
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.waitForURL((u) => u.pathname === '/notifications');
    await shown(page.getByRole('heading', { name: 'Notifications', level: 1 }));

    // The list refreshes by itself (and on Refresh); the alert appears once its 60 s grace period is over.
    const critical = card(page, 'critical disk usage', 'e2e-disk-01');
    await expect
      .poll(
        async () => {
          if (await critical.isVisible()) return true;
          await page.getByRole('button', { name: 'Refresh' }).click();
          return false;
        },
        { timeout: 150_000, interval: 3000 },
      )
      .toBe(true);
    // Not before the grace period: flapping inside it opens nothing.
    expect(Date.now() - crossedAt).toBeGreaterThanOrEqual(58_000);
    await shown(critical.getByText('Active'));
    await shown(critical.getByText('critical'));
    await shown(critical.getByText('Resource Alert'));
    await shown(critical.getByText('127.0.0.1'));
    const alert = await waitForAlert(admin, 'e2e-disk-01', 'critical_disk_usage', 10_000);

    // The firing email reached the group's address, with a link to the alert's drawer.
    await expect.poll(() => mails.find((m) => m.raw.includes('[FIRING] critical_disk_usage on e2e-disk-01')), { timeout: 30_000, interval: 500 }).toBeDefined();
    const firing = mails.find((m) => m.raw.includes('[FIRING] critical_disk_usage on e2e-disk-01'))!;
    expect(firing.to).toEqual(['oncall@example.com']);
    expect(firing.raw).toContain(`/notifications/show/${alert._id}`);

    // Resolved from the command line, by words that match one alert, with a markdown note.
    await commandLine(page, 'alert.resolve critical_disk_usage --note "Freed **40 GB** on /var/log"');
    await shown(page.getByText('Resolved critical disk usage on e2e-disk-01'));
    // The high-disk warning opened in the same tick; then the disk is cleaned up, so nothing fires
    // again and the warning resolves by itself (the server tab's test reads both).
    await waitForAlert(admin, 'e2e-disk-01', 'high_disk_usage', 30_000);
    disk.figures.disk = 50;
    await shown(critical.getByText('Resolved'));

    // The drawer's timeline: Triggered by Opsdeck, then Resolved by admin with the note as markdown.
    await critical.getByRole('button', { name: 'Actions for critical disk usage on e2e-disk-01' }).click();
    await page.getByRole('menuitem', { name: 'View alert' }).click();
    await page.waitForURL((u) => u.pathname === `/notifications/show/${alert._id}`);
    const drawer = drawerOf(page, 'critical disk usage', 'e2e-disk-01');
    await drawer.getByRole('tab', { name: 'Timeline' }).click();
    const timeline = drawer.getByRole('list', { name: 'Timeline' });
    // Entries are the list's own items (a note may hold a markdown list of its own).
    const entries = timeline.locator(':scope > li');
    await shown(entries.filter({ hasText: 'Resolved' }));
    // Triggered, the delivery log of the firing email, then the resolution with its author and note.
    const texts = await entries.allTextContents();
    expect(texts[0]).toMatch(/^Triggered.*by Opsdeck/);
    expect(texts.some((t) => /^Delivery.*by Opsdeck.*Email sent to oncall@example\.com \(firing notification\)/.test(t)), texts.join('\n')).toBe(true);
    const resolved = entries.filter({ hasText: /^Resolved/ });
    expect(await resolved.count()).toBe(1);
    expect(await resolved.textContent()).toMatch(/^Resolved.*by admin/);
    expect(await resolved.locator('strong', { hasText: '40 GB' }).count()).toBe(1);
    await shown(resolved.getByText('on /var/log'));

    // The operator's resolution is announced too.
    await expect.poll(() => mails.some((m) => m.raw.includes('[RESOLVED] critical_disk_usage on e2e-disk-01')), { timeout: 30_000, interval: 500 }).toBe(true);
    // …and the open drawer shows its delivery entry by itself, no reload.
    await shown(entries.filter({ hasText: /Email sent to oncall@example\.com \(resolved notification\)/ }), 15_000);
    await drawer.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL((u) => u.pathname === '/notifications');

    // The other hosts' alerts, opened in the same minute, are what the next tests triage.
    await waitForAlert(admin, 'e2e-mem-01', 'high_memory_usage', 60_000);
    await waitForAlert(admin, 'e2e-gone-01', 'instance_down', 60_000);
  }, 300_000);

  it('opens on what is firing, newest first: a resolved alert newer than every firing one comes after them', async () => {
    const { page } = b;
    // An alert from Alertmanager that fires and resolves now: the newest alert of all.
    const token = await admin.call<{ result: { token: string } }>('POST', 'integrations/alertmanager/token');
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    const startsAt = new Date().toISOString();
    const send = async (status: 'firing' | 'resolved') => {
      const alert = { status, labels: { alertname: 'OrderCheck', severity: 'info', instance: 'order-check.example:9100' }, annotations: { summary: 'Fired and resolved' }, startsAt, endsAt: status === 'resolved' ? new Date().toISOString() : '0001-01-01T00:00:00Z', generatorURL: 'http://prometheus:9090/graph', fingerprint: 'e2e-order-check' };
      const body = { version: '4', groupKey: '{}:{alertname="OrderCheck"}', truncatedAlerts: 0, status, receiver: 'opsdeck', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: 'http://alertmanager:9093', alerts: [alert] };
      const res = await fetch(`${server.url}/api/integrations/alertmanager`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token.body.result.token}` }, body: JSON.stringify(body) });
      expect(res.status, await res.text()).toBe(200);
    };
    await send('firing');
    await send('resolved');
    // SPEC's order (createdAt desc) puts it first.
    const newest = (await alerts(admin))[0]!;
    expect(newest).toMatchObject({ alertname: 'OrderCheck', status: 'resolved' });

    await page.goto('/notifications');
    const cards = page.getByRole('article');
    await shown(cards.filter({ hasText: newest.hostname }));
    const active: boolean[] = [];
    let resolvedAt = -1;
    for (const [i, c] of (await cards.all()).entries()) {
      active.push((await c.getByText('Active', { exact: true }).count()) > 0);
      if ((await c.textContent())!.includes(newest.hostname)) resolvedAt = i;
    }
    const firing = active.filter(Boolean).length;
    expect(firing).toBeGreaterThan(0);
    expect(active, 'firing cards first').toEqual(active.map((_, i) => i < firing));
    expect(resolvedAt).toBeGreaterThanOrEqual(firing);
  });

  it('shows cards by default with the alert’s details; the drawer has Overview, Timeline and Action, whose form says what is missing', async () => {
    const { page } = b;
    await page.goto('/notifications');
    const c = card(page, 'high memory usage', 'e2e-mem-01');
    await shown(c);
    for (const text of ['Active', 'warning', 'Resource Alert', '127.0.0.1', 'Triggered At']) await shown(c.getByText(text, { exact: true }));
    // Critical is red.
    const gone01 = card(page, 'instance down', 'e2e-gone-01');
    expect(await gone01.getByText('critical', { exact: true }).getAttribute('class')).toContain('text-red-');

    await c.getByRole('button', { name: 'high memory usage · e2e-mem-01' }).click();
    const drawer = drawerOf(page, 'high memory usage', 'e2e-mem-01');
    await shown(drawer);
    expect(await drawer.evaluate((el) => el.closest('[style*="756px"]') !== null)).toBe(true);
    const overview = drawer.getByRole('definition');
    const terms = await drawer.getByRole('term').allTextContents();
    expect(terms).toEqual(['Hostname', 'Instance', 'Name', 'Description', 'Severity', 'Status', 'Type', 'Summary', 'Mountpoint', 'Volume', 'Service']);
    expect(await overview.nth(0).textContent()).toBe('e2e-mem-01');
    expect(await overview.nth(2).textContent()).toBe('high memory usage');
    expect(await overview.nth(6).textContent()).toBe('Resource Alert');
    expect((await overview.nth(7).textContent())!.length).toBeGreaterThan(5);
    await shown(drawer.getByText(/^Triggered at /));

    await drawer.getByRole('tab', { name: 'Action' }).click();
    await drawer.getByRole('button', { name: 'Save' }).click();
    await shown(drawer.getByText('Update Status', { exact: true }));
    await shown(drawer.getByText('Add Notes', { exact: true }));
    await drawer.getByRole('button', { name: /Status/ }).click();
    await page.getByRole('option', { name: 'Snoozed' }).click();
    await gone(drawer.getByText('Update Status', { exact: true }));
    await drawer.getByRole('button', { name: 'Save' }).click();
    await shown(drawer.getByText('Add Notes', { exact: true }));
    await drawer.getByRole('textbox', { name: 'Notes' }).fill('Batch job runs until noon; see <script>alert(1)</script> _runbook_');
    await drawer.getByRole('button', { name: 'Save' }).click();
    // Saved: the timeline shows the snooze with the note, raw HTML dropped, markdown kept.
    const entries = drawer.getByRole('list', { name: 'Timeline' }).locator(':scope > li');
    await shown(entries.filter({ hasText: 'Snoozed' }));
    const snoozed = entries.filter({ hasText: 'Snoozed' });
    expect(await snoozed.textContent()).toMatch(/by admin/);
    expect(await snoozed.locator('em', { hasText: 'runbook' }).count()).toBe(1);
    expect(await snoozed.locator('script').count()).toBe(0);
    await drawer.getByRole('tab', { name: 'Overview' }).click();
    await shown(drawer.getByText('until it resolves'));
    await page.keyboard.press('Escape');
    await gone(drawer);
    await shown(c.getByText('Snoozed', { exact: true }));
  });

  it('switches to the table, which clears the filters; filters by status, hostname (debounced) and date range', async () => {
    const { page } = b;
    await page.goto('/notifications?hostname=mem');
    await shown(card(page, 'high memory usage', 'e2e-mem-01'));
    await gone(card(page, 'instance down', 'e2e-gone-01'));
    await page.getByRole('button', { name: 'Table' }).click();
    await page.waitForURL((u) => u.searchParams.get('view') === 'table' && !u.searchParams.has('hostname'));
    const table = page.getByRole('table', { name: 'Alerts' });
    await shown(table);
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Hostname', 'IP Address', 'Status', 'Alertname', 'Description', 'Type', 'Severity', 'Triggered At', 'Actions']);
    await shown(row(page, 'instance down', 'e2e-gone-01'));
    const cells = row(page, 'instance down', 'e2e-gone-01').getByRole('cell');
    expect(await cells.nth(0).textContent()).toBe('e2e-gone-01');
    await shown(cells.nth(1).getByRole('button', { name: /^Copy IP Address 127\.0\.0\.1/ }));
    expect(await cells.nth(2).textContent()).toBe('Active');
    expect(await cells.nth(5).textContent()).toBe('Resource Alert');
    expect(await cells.nth(6).locator('span').getAttribute('class')).toContain('text-red-');

    // Status: Resolved shows only resolved alerts, Active only firing ones.
    await page.getByRole('radio', { name: 'Resolved' }).click();
    await page.waitForURL(/alertStatus=resolved/);
    await shown(row(page, 'critical disk usage', 'e2e-disk-01'));
    await gone(row(page, 'instance down', 'e2e-gone-01'));
    for (const status of await page.getByRole('table', { name: 'Alerts' }).locator('tbody tr td:nth-child(3)').allTextContents()) expect(status).toBe('Resolved');
    await page.getByRole('radio', { name: 'Active' }).click();
    await shown(row(page, 'instance down', 'e2e-gone-01'));
    await gone(row(page, 'critical disk usage', 'e2e-disk-01'));
    await page.getByRole('radio', { name: 'All' }).click();

    // Hostname search waits 500 ms after the last keystroke.
    const t0 = Date.now();
    await page.getByPlaceholder('Search by Hostname').fill('gone');
    if (Date.now() - t0 < 400) expect(page.url()).not.toContain('hostname=');
    await page.waitForURL(/hostname=gone/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    await gone(row(page, 'high memory usage', 'e2e-mem-01'));
    await shown(row(page, 'instance down', 'e2e-gone-01'));
    await page.getByPlaceholder('Search by Hostname').fill('');
    await shown(row(page, 'high memory usage', 'e2e-mem-01'));

    // Date range: alerts of today show; a range in the future has none.
    const today = new Date();
    const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    await page.getByLabel('From').fill(day(today));
    await page.getByLabel('To').fill(day(today));
    await page.waitForURL(/until=/);
    await shown(row(page, 'instance down', 'e2e-gone-01'));
    await page.getByLabel('To').fill('2099-12-31');
    await page.getByLabel('From').fill('2099-12-30');
    await shown(page.getByText('No alerts match these filters.'));
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await shown(row(page, 'instance down', 'e2e-gone-01'));
    // Page size choices SPEC §9.
    await page.getByRole('button', { name: /Page size/ }).click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['25 / page', '50 / page', '75 / page', '100 / page']);
    await page.keyboard.press('Escape');
  });

  it('a user-role account triages but cannot delete; an admin deletes after the confirmation', async () => {
    const viewer = await openBrowser(server.url);
    try {
      await signIn(viewer.page, 'viewer@example.com', 'viewer-password');
      await viewer.page.goto('/notifications?view=table');
      const r = row(viewer.page, 'instance down', 'e2e-gone-01');
      await shown(r);
      const del = r.getByRole('button', { name: 'Delete instance down on e2e-gone-01' });
      expect(await del.isDisabled()).toBe(true);
      expect(await del.locator('xpath=..').getAttribute('title')).toMatch(/Only Admin or sysadmin/);
      // A note needs no particular role.
      await commandLine(viewer.page, 'alert.note instance_down --note "Looking at the hypervisor"');
      await shown(viewer.page.getByText('Added a note to instance down on e2e-gone-01'));
      await r.getByRole('button', { name: 'View instance down on e2e-gone-01' }).click();
      const drawer = drawerOf(viewer.page, 'instance down', 'e2e-gone-01');
      await shown(drawer);
      expect(await drawer.getByRole('button', { name: 'Delete Alert' }).isDisabled()).toBe(true);
      await drawer.getByRole('tab', { name: 'Timeline' }).click();
      const note = drawer.getByRole('listitem').filter({ hasText: 'Looking at the hypervisor' });
      await shown(note);
      expect(await note.textContent()).toMatch(/^Note.*by viewer/);
      await viewer.page.keyboard.press('Escape');
      await gone(drawer);
      // The command line refuses the delete with the reason, and nothing is deleted.
      await commandLine(viewer.page, 'alert.delete instance_down');
      await shown(viewer.page.getByText(/Only Admin or sysadmin accounts can do this/));
    } finally {
      await viewer.close();
    }
    expect((await alerts(admin, { alertname: { eq: 'instance_down' } })).length).toBe(1);

    const { page } = b;
    await page.goto('/notifications?view=table');
    const r = row(page, 'instance down', 'e2e-gone-01');
    await r.getByRole('button', { name: 'View instance down on e2e-gone-01' }).click();
    const drawer = drawerOf(page, 'instance down', 'e2e-gone-01');
    await drawer.getByRole('button', { name: 'Delete Alert' }).click();
    const confirm = page.getByRole('alertdialog');
    await shown(confirm.getByText('Delete the alert?'));
    await shown(confirm.getByText('Are you sure to delete this alert?'));
    await confirm.getByRole('button', { name: 'No' }).click();
    await gone(confirm);
    await shown(drawer);
    await drawer.getByRole('button', { name: 'Delete Alert' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
    await page.waitForURL((u) => u.pathname === '/notifications');
    await gone(drawer);
    await gone(row(page, 'instance down', 'e2e-gone-01'));
    expect(await alerts(admin, { alertname: { eq: 'instance_down' }, status: { eq: 'firing' } })).toEqual([]);
  });

  it('by keyboard: go to Notifications, snooze matching alerts with a count preview, open an alert from the palette', async () => {
    const { page } = b;
    await page.goto('/servers');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Alt+3');
    await page.waitForURL((u) => u.pathname === '/notifications');
    // The memory alert was snoozed until it resolves; re-snooze it with a duration, previewing the count.
    await commandLine(page, 'alerts.snooze-matching --host e2e- --severity warning --note "Change window" --for 2h');
    const confirm = page.getByRole('alertdialog');
    // Open warning alerts: only the memory one (the high-disk warning resolved when the disk was cleaned).
    await shown(confirm.getByText(/^Snooze 1 alert\? \(host contains “e2e-”, severity warning; for 2h\)$/));
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await shown(page.getByText('Snoozed 1 alert matching host contains “e2e-”, severity warning.'));
    const open = await alerts(admin, { severity: { eq: 'warning' }, status: { in: ['firing', 'snoozed'] } });
    expect(open.map((a) => [a.alertname, a.status])).toEqual([['high_memory_usage', 'snoozed']]);
    // Nothing matching: said before any question.
    await commandLine(page, 'alerts.resolve-matching --host nowhere --note x');
    await shown(page.getByText('No open alerts match host contains “nowhere”'));

    // The palette finds alerts among its entities and opens the drawer.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('e2e-mem');
    const option = palette.getByRole('option').filter({ hasText: 'high memory usage · e2e-mem-01' });
    await shown(option);
    await option.click();
    const drawer = drawerOf(page, 'high memory usage', 'e2e-mem-01');
    await shown(drawer);
    await drawer.getByRole('tab', { name: 'Timeline' }).click();
    await shown(drawer.getByRole('listitem').filter({ hasText: 'Change window' }));
    // A timed snooze says when it ends.
    await drawer.getByRole('tab', { name: 'Overview' }).click();
    const until = drawer.getByText(/^until \S/);
    await shown(until);
    const ends = Date.parse((await until.locator('time').getAttribute('datetime'))!);
    expect(ends - Date.now()).toBeGreaterThan(7_000_000);
    expect(ends - Date.now()).toBeLessThanOrEqual(7_200_000);
    await page.keyboard.press('Escape');
  });

  it('the server detail’s Notifications tab lists that server’s alerts and opens one in a drawer in place', async () => {
    const { page } = b;
    await page.goto(`/servers/show/${ids['e2e-disk-01']}?tab=notifications`);
    const table = page.getByRole('table', { name: 'Alerts of e2e-disk-01' });
    await shown(table);
    await shown(row(page, 'critical disk usage', 'e2e-disk-01'));
    await shown(row(page, 'high disk usage', 'e2e-disk-01'));
    expect(await table.locator('tbody tr').count()).toBe(2);
    // Status filter here too.
    await page.getByRole('radio', { name: 'Active' }).click();
    await gone(row(page, 'critical disk usage', 'e2e-disk-01'));
    await page.getByRole('radio', { name: 'All' }).click();
    await row(page, 'critical disk usage', 'e2e-disk-01').getByRole('button', { name: 'View critical disk usage on e2e-disk-01' }).click();
    const drawer = drawerOf(page, 'critical disk usage', 'e2e-disk-01');
    await shown(drawer);
    expect(new URL(page.url()).pathname).toBe(`/servers/show/${ids['e2e-disk-01']}`);
    await drawer.getByRole('tab', { name: 'Timeline' }).click();
    await shown(drawer.getByText('on /var/log'));
    await drawer.getByRole('button', { name: 'Close' }).click();
    await gone(drawer);
  });

  it('on a phone: always cards (no card/table switch, even with view=table in the URL), filters still there, the drawer full width', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 360, height: 780 });
    try {
      await page.goto('/notifications?view=table');
      const c = card(page, 'high memory usage', 'e2e-mem-01');
      await shown(c);
      expect(await page.getByRole('table', { name: 'Alerts' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Table' }).count()).toBe(0);
      await shown(page.getByPlaceholder(/hostname/i));
      // No sideways scrolling of the page itself.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await c.getByRole('button', { name: 'high memory usage · e2e-mem-01' }).click();
      const drawer = drawerOf(page, 'high memory usage', 'e2e-mem-01');
      await shown(drawer);
      const box = await drawer.boundingBox();
      expect(Math.round(box!.width)).toBe(360);
      await drawer.getByRole('button', { name: 'Close' }).click();
      await page.waitForURL((u) => u.pathname === '/notifications');
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });

  it('an unknown alert id returns to the list', async () => {
    const { page } = b;
    // The notice shows for a few seconds: watch for it while the page loads.
    await Promise.all([shown(page.getByText('This alert no longer exists.'), 30_000), page.goto('/notifications/show/00000000-0000-4000-8000-000000000000')]);
    await page.waitForURL((u) => u.pathname === '/notifications');
    await page.goto('/notifications/edit/00000000-0000-4000-8000-000000000000');
    await page.waitForURL((u) => u.pathname === '/notifications');
  });

  it('a contact method is verified in Account Settings by the code its test message carried; a step of notification rules is added beside it; an admin sees another person’s on the user drawer', async () => {
    const { page } = b;
    await page.goto('/');
    await page.getByRole('button', { name: 'admin', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Account Settings' });
    const add = drawer.getByRole('form', { name: 'Add contact method' });
    await add.getByRole('textbox', { name: 'Label' }).fill('Pager mail');
    await add.getByRole('textbox', { name: 'Email address' }).fill('pager@example.com');
    await add.getByRole('button', { name: 'Add contact method' }).click();
    const methods = drawer.getByRole('list', { name: 'Your contact methods' });
    await shown(methods.getByText('Not verified'));
    // No verified method yet: the rules say a page reaches nobody.
    await shown(drawer.getByText('No rules set, and no verified contact method: a page reaches nobody.'));

    const sentBefore = mails.length;
    await methods.getByRole('button', { name: 'Send test message to Pager mail' }).click();
    await expect.poll(() => mails.slice(sentBefore).find((m) => m.to.includes('pager@example.com')), { timeout: 20_000 }).toBeDefined();
    const mail = mails.slice(sentBefore).find((m) => m.to.includes('pager@example.com'))!;
    expect(mail.raw).toContain('Subject: Opsdeck verification code');
    const code = /Pager mail.{0,8}is (\d{6})\./s.exec(mail.raw)?.[1];
    expect(code, mail.raw).toMatch(/^\d{6}$/);

    const verify = drawer.getByRole('form', { name: 'Verify Pager mail' });
    await verify.getByRole('textbox', { name: 'Code from the test message' }).fill(code!);
    await verify.getByRole('button', { name: 'Verify' }).click();
    await shown(methods.getByText('Verified', { exact: true }));
    await gone(verify);
    const me = (await admin.call<{ result: { _id: string } }>('GET', 'auth/whoami')).body.result;
    const stored = (await admin.call<{ result: { data: { label: string; verified: boolean }[] } }>('GET', `users/${me._id}/contact-methods`)).body.result.data;
    expect(stored).toEqual([expect.objectContaining({ label: 'Pager mail', verified: true })]);

    // Verified, it is paged at once by default; a step after 5 minutes makes the rules the person's own.
    await shown(drawer.getByText('No rules set: every verified contact method is paged at once.'));
    const rule = drawer.getByRole('form', { name: 'Add notification rule' });
    await rule.getByRole('textbox', { name: 'After minutes unacknowledged' }).fill('5');
    await rule.getByRole('button', { name: 'Add step' }).click();
    const steps = drawer.getByRole('list', { name: 'Your notification rules' });
    await shown(steps.getByText('After 5 min'));
    const rules = (await admin.call<{ result: { isDefault: boolean; data: { afterMinutes: number; method: { label: string } }[] } }>('GET', `users/${me._id}/notification-rules`)).body.result;
    expect(rules).toMatchObject({ isDefault: false, data: [{ afterMinutes: 5, method: { label: 'Pager mail' } }] });
    await page.keyboard.press('Escape');

    // The user drawer shows the viewer's own (none) to the admin, with the same forms.
    const viewer = (await admin.findUserByEmail('viewer@example.com'))!;
    await page.goto(`/users/show/${viewer._id}`);
    const userDrawer = page.getByRole('dialog', { name: 'User viewer' });
    await shown(userDrawer.getByText('Where viewer is reached when paged.', { exact: false }));
    await userDrawer.getByRole('form', { name: 'Add contact method' }).getByRole('textbox', { name: 'Label' }).fill('Viewer mail');
    await userDrawer.getByRole('form', { name: 'Add contact method' }).getByRole('textbox', { name: 'Email address' }).fill('viewer@example.com');
    await userDrawer.getByRole('button', { name: 'Add contact method' }).click();
    await shown(userDrawer.getByRole('list', { name: 'Contact methods of viewer' }).getByText('Viewer mail'));
    const theirs = (await admin.call<{ result: { data: { label: string; userId: string }[] } }>('GET', `users/${viewer._id}/contact-methods`)).body.result.data;
    expect(theirs).toEqual([expect.objectContaining({ label: 'Viewer mail', userId: viewer._id })]);
  });
});
