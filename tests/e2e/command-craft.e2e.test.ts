import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { commandLine, openBrowser, openPalette, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { startServer, type RunningServer } from './server-process';

/**
 * Issue 13 "Defects" in the palette and the command line, against a server of its own seeded
 * before it starts (the evaluator off, so alerts stay as written): widget.pin's widget step offers
 * the server's charts, chosen arguments read as names, hosts that differ only at their end stay
 * told apart, a destructive confirmation names its target and Enter declines, and a refused
 * argument is named in words with its valid choices.
 */
type Session = Awaited<ReturnType<typeof apiSession>>;
const LONG = 'pal-frontend-production-eu-west-region-cluster';
const HOST_A = `${LONG}-a01`;
const HOST_B = `${LONG}-b02`;
const FILLER = 'filler-host-01';

async function seed(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    await database.query(
      `insert into servers (hostname, ipaddress, operating_system, is_agent_configured) values ('${HOST_A}', '10.252.0.1', 'linux', true), ('${HOST_B}', '10.252.0.2', 'linux', true)`,
    );
    await database.query(
      `insert into alerts (server_id, hostname, instance, alertname, type, severity, status, subject, summary)
       select id, hostname, ipaddress, 'high_cpu_usage_sustained', 'resouce_alert', 'warning', 'firing', 'cpu-' || hostname, 'CPU busy' from servers where hostname like 'pal-%'`,
    );
    // Newer alerts of another host, more than the empty palette fetches: the pal- alerts are then
    // found only by what the API answers for the text typed.
    await database.query(`insert into servers (hostname, ipaddress, operating_system, is_agent_configured) values ('${FILLER}', '10.252.0.3', 'linux', true)`);
    await database.query(
      `insert into alerts (server_id, hostname, instance, alertname, type, severity, status, subject, summary, created_at)
       select s.id, s.hostname, s.ipaddress, 'memory_pressure', 'resouce_alert', 'info', 'resolved', 'fill-' || g, 'Memory pressure', now() + make_interval(secs => g)
       from servers s, generate_series(1, 60) g where s.hostname = '${FILLER}'`,
    );
  } finally {
    await database.close();
  }
}

const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });

describe('command craft (issue 13 defects)', () => {
  let server: RunningServer;
  let admin: Session;
  let b: Browser;
  let zed: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-e2e-craft-'));
    await seed(dataDir);
    server = await startServer({ dataDir, env: { ALERT_EVALUATION: '0' } });
    admin = await apiSession(server.url);
    const created = await admin.call<{ result: { _id: string } }>('POST', 'users', { username: 'zed', email: 'zed@example.com', phonenumber: '+1 555 0199', password: 'pw-123456', role: 'user' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    zed = created.body.result._id;
    b = await openBrowser(server.url);
    await signIn(b.page);
  }, 300_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  it('widget.pin offers the server’s charts at its widget step, and chosen steps read as names, not ids', async () => {
    const { page } = b;
    const input = await openPalette(page);
    await input.fill('Pin widget');
    await shown(palette(page).getByRole('option', { name: /Pin widget/ }));
    await input.press('Enter');
    await input.fill(HOST_A);
    await shown(palette(page).getByRole('option', { name: new RegExp(HOST_A.slice(-10)) }));
    await input.press('Enter');
    await input.fill('Memory');
    await shown(palette(page).getByRole('option', { name: 'Memory' }));
    await input.press('Enter');
    // The widget step lists the Memory charts of a Linux host (it offered none: Enter gave "panel: Invalid input").
    await shown(palette(page).getByRole('option', { name: 'RAM Used' }));
    const steps = (await palette(page).locator('div.border-b').first().textContent()) ?? '';
    expect(steps).toContain(`Server: ${HOST_A}`);
    expect(steps).toContain('Widget Type: Memory');
    expect(steps).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
    await input.fill('RAM Used');
    await input.press('Enter');
    // Refresh Interval and Title are optional: skip both.
    await input.press('Enter');
    await input.press('Enter');
    await shown(page.getByTestId('notice').getByText(/Pinned RAM Used of pal-frontend/));
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('widgets') ?? '[]') as { title: string }[]);
    expect(stored.map((w) => w.title)).toContain('RAM Used');
  });

  it('shows hosts that differ only at their end apart in the palette', async () => {
    const { page } = b;
    await page.keyboard.press('Escape');
    const input = await openPalette(page);
    await input.fill('high cpu usage sustained pal-frontend');
    const rows = palette(page).getByRole('option').filter({ hasText: 'high cpu usage sustained' });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    const hosts = await rows.locator('[data-host]').evaluateAll((els) => els.map((el) => ({ text: el.textContent, clipped: el.scrollWidth > el.clientWidth + 1, right: el.getBoundingClientRect().right, rowRight: el.closest('[role="option"]')!.getBoundingClientRect().right })));
    expect(hosts).toHaveLength(2);
    expect(new Set(hosts.map((h) => h.text)).size).toBe(2);
    for (const h of hosts) {
      expect(h.text).toMatch(/-(a01|b02)$/);
      expect(h.clipped).toBe(false);
      expect(h.right).toBeLessThanOrEqual(h.rowRight);
    }
    await page.keyboard.press('Escape');
  });

  it('finds alerts by several words in any order, each matching anywhere (issue 13: a multi-word search found none)', async () => {
    const { page } = b;
    await page.keyboard.press('Escape');
    const input = await openPalette(page);
    // Neither a substring of the alert's row nor in the order its title reads.
    await input.fill('b02 sustained');
    const rows = palette(page).getByRole('option').filter({ hasText: 'high cpu usage sustained' });
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    expect(await rows.locator('[data-host]').textContent()).toMatch(/-b02$/);
    await input.fill('busy cpu a01');
    await shown(palette(page).locator('[data-entities-for="busy cpu a01"]'));
    expect(await rows.count()).toBe(1);
    expect(await rows.locator('[data-host]').textContent()).toMatch(/-a01$/);
    await page.keyboard.press('Escape');
  });

  it('names the target of a destructive confirmation and focuses the safe choice: Enter keeps the user', async () => {
    const { page } = b;
    const input = await openPalette(page);
    await input.fill('Delete user');
    await shown(palette(page).getByRole('option', { name: /Delete user/ }));
    await input.press('Enter');
    await input.fill('zed');
    await shown(palette(page).getByRole('option', { name: /zed/ }));
    await input.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: 'Delete User' });
    await shown(confirm.getByText('Are you sure to delete this user?'));
    await shown(confirm.getByLabel('Target').getByText('zed · zed@example.com · user'));
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('No');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'hidden' });
    expect((await admin.call('GET', `users/${zed}`)).status).toBe(200);
  });

  it('list actions are commands: the palette finds them, the command line runs them, the screens show their state', async () => {
    const { page } = b;
    await page.goto('/servers');
    await shown(page.getByRole('heading', { name: 'Servers List' }));
    const input = await openPalette(page);
    await input.fill('show as table');
    await shown(palette(page).getByRole('option', { name: /Show as table/ }));
    await input.press('Enter');
    await page.waitForURL((u) => u.pathname === '/servers' && u.searchParams.get('view') === 'table');
    await shown(page.getByRole('table'));

    await commandLine(page, 'servers.search b02');
    await page.waitForURL((u) => u.searchParams.get('hostname') === 'b02' && u.searchParams.get('view') === 'table');
    await expect.poll(() => page.getByPlaceholder('Search by Hostname').inputValue()).toBe('b02');
    await expect.poll(() => page.getByRole('table').getByRole('row').filter({ hasText: LONG }).count()).toBe(1);
    await commandLine(page, 'list.sort ipaddress desc');
    await page.waitForURL((u) => u.searchParams.get('sortBy') === 'ipaddress' && u.searchParams.get('sortDir') === 'desc');

    await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await commandLine(page, `server.copy-ip ${HOST_A}`);
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('10.252.0.1');

    await commandLine(page, 'alerts.filter --status firing --from -1h');
    await page.waitForURL((u) => u.pathname === '/notifications' && u.searchParams.get('alertStatus') === 'firing' && /^\d{4}-\d{2}-\d{2}$/.test(u.searchParams.get('since') ?? ''));
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('article').filter({ hasText: 'pal-frontend' }).count(), { timeout: 15_000 }).toBe(2);
    await commandLine(page, 'list.page-size 50');
    await page.waitForURL((u) => u.searchParams.get('pageSize') === '50' && u.searchParams.get('alertStatus') === 'firing');
    // The screen's own control runs the same command: the status filter keeps the other filters.
    await page.keyboard.press('Escape');
    await page.getByRole('radio', { name: 'Resolved' }).click();
    await page.waitForURL((u) => u.searchParams.get('alertStatus') === 'resolved' && u.searchParams.get('pageSize') === '50' && !!u.searchParams.get('since'));
  });

  it('names a refused argument in words and lists its valid choices', async () => {
    const { page } = b;
    const out = page.getByRole('dialog', { name: 'Command line' });
    const lastError = () => out.locator('.text-red-400').last().textContent();
    await commandLine(page, `widget.pin ${HOST_B} memory`);
    await expect.poll(lastError, { timeout: 15_000 }).toMatch(/^Pin widget: Widget is required\. Choose one of: .*16 \(RAM Used\)/);
    await commandLine(page, `widget.pin ${HOST_B} ram "RAM Used"`);
    await expect.poll(lastError, { timeout: 15_000 }).toMatch(/^Pin widget: Widget Type: “ram” is not one of the choices\. Choose one of: cpu, memory, disk, network\./);
    await page.keyboard.press('Escape');
  });
});
