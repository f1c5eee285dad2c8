import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCommands } from '../../commands';
import { openDatabase } from '../../server/db/client';
import { commandLine, gone, openBrowser, runFromPalette, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { freePort, startServer, type RunningServer } from './server-process';

/**
 * The home dashboard (SPEC §2) against its own server: the twelve hosts of the demo fleet, live
 * (api-01 hot CPU, db-01 and win-sql-01 high memory, log-01 and win-file-01 full disks,
 * cache-01 and win-iis-01 failing services, worker-01 down), plus rows written into the data
 * folder before the server starts: six more agent-configured servers whose exporters refuse
 * (so they go down), and 32 firing and 1,200 resolved alerts. The alert evaluator is off here
 * (ALERT_EVALUATION=0; it would otherwise run after every scrape round), so the seeded alerts stay exactly as written.
 */

type Session = Awaited<ReturnType<typeof apiSession>>;
const FIRING = 32;
const RESOLVED = 1200;
const DEAD = 6;
const eventually = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 200 });
const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });
const rowOf = (scope: Locator, text: string) => scope.getByRole('row').filter({ hasText: text });
const searchOf = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);
const hasAlertDelete = allCommands.some((c) => (c.id as string) === 'alert.delete');

async function seed(dataDir: string, closedPort: number): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    const [holder] = await database.query<{ id: string }>(
      `insert into servers (hostname, ipaddress, operating_system, is_agent_configured) values ('alert-holder', '10.250.0.1', 'linux', false) returning id`,
    );
    await database.query(
      `insert into servers (hostname, ipaddress, operating_system, agent_port, is_agent_configured)
       select 'dead-' || g, '127.0.0.1', 'linux', $1::int + g, true from generate_series(1, ${DEAD}) g`,
      [closedPort],
    );
    // Firing alerts a minute apart, newest first by name: alpha-01 is the newest.
    await database.query(
      `insert into alerts (server_id, hostname, instance, alertname, description, type, severity, status, subject, created_at)
       select $1, case when g <= 20 then 'alpha-' else 'beta-' end || lpad(g::text, 2, '0'), '10.250.1.' || g, 'instance_down',
              'Host ' || g || ' does not answer', 'resouce_alert', case when g = 1 then 'critical' else 'warning' end, 'firing', 'seed-' || g,
              now() - make_interval(mins => g)
       from generate_series(1, ${FIRING}) g`,
      [holder!.id],
    );
    await database.query(
      `insert into alerts (server_id, hostname, instance, alertname, type, severity, status, subject, created_at, resolved_at)
       select $1, 'old-' || g, '10.250.2.1', 'high_cpu_usage', 'resouce_alert', 'warning', 'resolved', 'old-' || g, now() - interval '2 days', now() - interval '1 day'
       from generate_series(1, ${RESOLVED}) g`,
      [holder!.id],
    );
  } finally {
    await database.close();
  }
}

describe('dashboard', () => {
  let server: RunningServer;
  let admin: Session;
  let b: Browser;
  const analytics = async <T = any>(path: string) => (await admin.call<{ result: T }>('GET', `analytics/${path}`)).body.result;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-e2e-dash-'));
    await seed(dataDir, await freePort());
    server = await startServer({
      dataDir,
      env: { DEMO_FLEET: '1', DEMO_FLEET_SIZE: '12', DEMO_FLEET_PORT: String(await freePort()), SCRAPE_INTERVAL: '2', ALERT_EVAL_INTERVAL: '3600', ALERT_EVALUATION: '0' },
    });
    admin = await apiSession(server.url);
    // The known state of the fleet, once every host has been scraped twice (CPU is a rate).
    for (const deadline = Date.now() + 90_000; ; ) {
      const nodes = await analytics('nodes-summary');
      const cpu = await analytics<{ data: { hostname: string }[] }>('top-cpu-usage-servers?percentage=90');
      const services = await analytics<{ data: { hostname: string }[] }>('get-services-down');
      const ready =
        nodes.total_nodes === 12 + DEAD &&
        nodes.total_nodes_down === 1 + DEAD &&
        nodes.total_nodes_up === 11 &&
        cpu.data.some((r) => r.hostname === 'api-01') &&
        ['cache-01', 'win-iis-01'].every((h) => services.data.some((r) => r.hostname === h));
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`the demo fleet did not reach its known state: ${JSON.stringify(nodes)}\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    b = await openBrowser(server.url);
    await signIn(b.page);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  it('lays the cards out on the 24-column grid with their widths, stacking on a phone', async () => {
    const { page } = b;
    await page.goto('/');
    const titles = ['Instance Summary', 'Alerts Summary', 'High CPU Usage Servers', 'High Memory Usage Servers', 'High Disk Usage Servers', 'Services Down', 'Down Servers', 'Instance Down'];
    for (const t of titles) await shown(card(page, t));
    const grid = await card(page, 'Instance Down').evaluate((el) => getComputedStyle(el.parentElement!).gridTemplateColumns.split(' ').length);
    expect(grid).toBe(24);
    const width = async (t: string) => (await card(page, t).boundingBox())!.width;
    const full = await width('Instance Down');
    // 6 of 24 and 12 of 24 columns, less the gaps.
    expect((await width('Instance Summary')) / full).toBeCloseTo(0.24, 1);
    expect((await width('Alerts Summary')) / full).toBeCloseTo(0.24, 1);
    for (const t of titles.slice(2, 7)) expect((await width(t)) / full, t).toBeCloseTo(0.49, 1);
    await page.setViewportSize({ width: 420, height: 900 });
    try {
      await eventually(async () => Math.abs((await width('Instance Summary')) - (await width('Instance Down'))) < 2).toBe(true);
      expect(Math.abs((await width('High CPU Usage Servers')) - (await width('Instance Down')))).toBeLessThan(2);
      expect(Math.abs((await width('Instance Summary')) - (await width('Instance Down')))).toBeLessThan(2);
      // A small phone: the page (header and cards) never scrolls sideways.
      await page.setViewportSize({ width: 320, height: 640 });
      await eventually(async () => (await width('Instance Down')) <= 320 - 32).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });

  it('shows the fleet: instance ring running/total, alert ring with abbreviated counts', async () => {
    const { page } = b;
    await page.goto('/');
    const instances = card(page, 'Instance Summary');
    await shown(instances.getByRole('img', { name: `Running instances: 11/${12 + DEAD}` }));
    await shown(instances.locator('dd', { hasText: String(DEAD + 1) }));
    const alerts = card(page, 'Alerts Summary');
    // 32 firing of 1,232: the ring's share, and k above 1,000 with one decimal.
    const ring = alerts.getByRole('img', { name: `Firing alerts: ${FIRING}` });
    await shown(ring);
    expect(Number(await ring.locator('circle[data-share]').getAttribute('data-share'))).toBeCloseTo(FIRING / (FIRING + RESOLVED), 3);
    expect(await alerts.locator('dt:has-text("Total") + dd').textContent()).toBe('1.2k');
    expect(await alerts.locator('dt:has-text("Resolved") + dd').textContent()).toBe('1.2k');
    expect(await alerts.locator('dt:has-text("Firing") + dd').textContent()).toBe(String(FIRING));
  });

  it('lists the troubled hosts with rounded figures: memory rounded, disk as percent used', async () => {
    const { page } = b;
    await page.goto('/');
    const cpu = card(page, 'High CPU Usage Servers');
    await shown(rowOf(cpu, 'api-01'));
    expect(await rowOf(cpu, 'api-01').getByRole('cell').last().textContent()).toMatch(/^(9[1-9]|100)%$/);
    const memory = card(page, 'High Memory Usage Servers');
    const disk = card(page, 'High Disk Usage Servers');
    for (const host of ['db-01', 'win-sql-01']) await shown(rowOf(memory, host));
    for (const host of ['log-01', 'win-file-01']) await shown(rowOf(disk, host));
    // The figure on the card is the API's, rounded: memory as is, disk by SPEC's OS rule.
    const mem = await analytics<{ data: { hostname: string; value: number }[] }>('top-memory-usage-servers?percentage=90');
    const shownMem = Number((await rowOf(memory, 'db-01').getByRole('cell').last().textContent())!.replace('%', ''));
    expect(Math.abs(shownMem - Math.round(mem.data.find((r) => r.hostname === 'db-01')!.value))).toBeLessThanOrEqual(1);
    const servers = (await admin.call<{ result: { data: { hostname: string; diskUsage: number }[] } }>('POST', 'servers/metrics/all', { pageNumber: 1, pageSize: 100 })).body.result.data;
    for (const host of ['log-01', 'win-file-01']) {
      const text = (await rowOf(disk, host).getByRole('cell').last().textContent())!;
      expect(text).toMatch(/^9\d%$/);
      // The same number as the Servers list shows for the host (percent used), give or take a scrape.
      expect(Math.abs(Number(text.replace('%', '')) - servers.find((s) => s.hostname === host)!.diskUsage)).toBeLessThan(1.6);
    }
    const services = card(page, 'Services Down');
    await shown(rowOf(services, 'cache-01').filter({ hasText: 'redis-server' }));
    await shown(rowOf(services, 'win-iis-01').filter({ hasText: 'w3svc' }));
    await shown(services.getByRole('button', { name: /^Copy IP Address/ }));
  });

  it('pages the 5-row tables with "Showing x-y of n items" and hides the pager for one page', async () => {
    const { page } = b;
    await page.goto('/');
    const down = card(page, 'Down Servers');
    await shown(rowOf(down, 'worker-01'));
    await shown(down.getByText(`Showing 1-5 of ${DEAD + 1} items`));
    expect(await down.locator('tbody tr').count()).toBe(5);
    await down.getByRole('button', { name: 'Next page' }).click();
    await shown(down.getByText(`Showing 6-${DEAD + 1} of ${DEAD + 1} items`));
    expect(await down.locator('tbody tr').count()).toBe(DEAD + 1 - 5);
    expect(await rowOf(down, 'dead-').first().getByRole('cell').last().textContent()).toMatch(/^(\d+s|\d+m \d+s)$/);
    // CPU at 90: api-01 only (fewer than 6 rows), so no pager and no "Showing" text.
    const cpu = card(page, 'High CPU Usage Servers');
    await shown(rowOf(cpu, 'api-01'));
    expect(await cpu.getByRole('navigation', { name: 'Pagination' }).count()).toBe(0);
    expect(await cpu.getByText(/^Showing/).count()).toBe(0);
  });

  it('changes thresholds through the selector and the command line, kept in the URL', async () => {
    const { page } = b;
    await page.goto('/');
    const memory = card(page, 'High Memory Usage Servers');
    await shown(rowOf(memory, 'db-01'));
    const asked = page.waitForRequest((r) => r.url().includes('/api/analytics/top-memory-usage-servers?percentage=60'));
    await memory.getByRole('button', { name: /High Memory Usage Servers threshold/ }).click();
    await page.getByRole('option', { name: 'above 60' }).click();
    await asked;
    await page.waitForURL(/memory=60/);
    // Hosts above 90 are above 60 too (other hosts' memory moves around 60, so no exact count).
    for (const host of ['db-01', 'win-sql-01']) await shown(rowOf(memory, host));
    await shown(memory.getByRole('button', { name: /above 60/ }));
    // A reload keeps it; the command line sets another card's.
    await page.reload();
    await shown(card(page, 'High Memory Usage Servers').getByRole('button', { name: /above 60/ }));
    await commandLine(page, 'dashboard.set-threshold disk 70');
    await page.waitForURL(/disk=70/);
    expect(searchOf(page)).toMatchObject({ memory: '60', disk: '70' });
    await shown(card(page, 'High Disk Usage Servers').getByRole('button', { name: /above 70/ }));
    await commandLine(page, 'dashboard.set-threshold memory 90');
    await eventually(() => searchOf(page).memory).toBeUndefined();
  });

  it('refreshes a card with its round button, disabled while loading, and all cards by command', async () => {
    const { page } = b;
    await page.goto('/');
    const services = card(page, 'Services Down');
    await shown(rowOf(services, 'cache-01'));
    const button = services.getByRole('button', { name: 'Refresh Services Down' });
    await eventually(() => button.isEnabled()).toBe(true);
    // Hold the answers back so "disabled while loading" is observable, then let them through. The
    // card also refreshes by itself: a refresh of its own held before the click leaves the button
    // disabled, so that one is let through and the click tried again.
    const url = '**/api/analytics/get-services-down';
    const waiting: (() => void)[] = [];
    const answered: Promise<void>[] = [];
    let asked = 0;
    await page.route(url, (route) => {
      asked += 1;
      const answer = new Promise<void>((r) => waiting.push(r)).then(() => route.continue());
      answered.push(answer);
      return answer;
    });
    const releaseAll = () => waiting.splice(0).forEach((r) => r());
    try {
      for (let attempt = 1; ; attempt++) {
        releaseAll();
        await eventually(() => button.isEnabled()).toBe(true);
        const before = asked;
        try {
          await button.click({ timeout: 3000 });
        } catch (error) {
          if (attempt === 3) throw error;
          continue;
        }
        // The click asked again, and the button stays disabled while that answer is held.
        await eventually(() => asked).toBeGreaterThan(before);
        break;
      }
      await eventually(() => button.isDisabled()).toBe(true);
      releaseAll();
      await eventually(() => button.isEnabled()).toBe(true);
    } finally {
      releaseAll();
      await Promise.all(answered);
      await page.unroute(url);
    }
    const seen = new Set<string>();
    page.on('request', (r) => {
      const m = /\/api\/(analytics\/[a-z-]+|alerts\/all)/.exec(r.url());
      if (m) seen.add(m[1]!);
    });
    await commandLine(page, 'dashboard.refresh');
    await eventually(() => seen.size).toBe(8);
  });

  it('lists firing alerts newest first in Instance Down, filters by hostname, pages 25/50', async () => {
    const { page } = b;
    await page.goto('/');
    const table = card(page, 'Instance Down');
    await shown(table.getByText(`Showing 1-25 of ${FIRING} items`));
    const first = table.locator('tbody tr').first();
    expect(await first.locator('td').first().textContent()).toBe('alpha-01');
    await shown(first.getByText('Active'));
    expect(await first.getByText('Active').getAttribute('class')).toContain('text-red-');
    // Severity red when critical (alpha-01 is the critical one), plain otherwise; capitalised as on the Notifications screen.
    expect(await first.getByRole('cell', { name: 'critical' }).locator('span').getAttribute('class')).toContain('text-red-');
    expect(await first.getByRole('cell', { name: 'critical' }).innerText()).toBe('Critical');
    expect(await table.locator('tbody tr').nth(1).getByRole('cell', { name: 'warning' }).locator('span').getAttribute('class')).not.toContain('text-red-');
    await shown(first.getByRole('cell', { name: 'Resource Alert' }));
    await shown(first.getByRole('button', { name: 'Copy IP Address 10.250.1.1' }));
    await table.getByRole('button', { name: 'Next page' }).click();
    await shown(table.getByText(`Showing 26-${FIRING} of ${FIRING} items`));
    await table.getByRole('button', { name: /Page size/ }).click();
    await page.getByRole('option', { name: '50 / page' }).click();
    await shown(table.getByText(`Showing 1-${FIRING} of ${FIRING} items`));
    await table.getByRole('searchbox', { name: 'Filter Hostname' }).fill('beta');
    await shown(table.getByText('Showing 1-12 of 12 items'));
    await page.waitForURL(/host=beta/);
    expect(await table.locator('tbody tr').first().locator('td').first().textContent()).toBe('beta-21');
  });

  it('opens an alert from Instance Down in the notifications screen', async () => {
    const { page } = b;
    await page.goto('/');
    const table = card(page, 'Instance Down');
    await shown(table.getByText(`Showing 1-25 of ${FIRING} items`));
    const list = await admin.call<{ result: { data: { _id: string }[] } }>('POST', 'alerts/all', { pageNumber: 1, pageSize: 25, filter: { hostname: { eq: 'alpha-01' } } });
    const id = list.body.result.data[0]!._id;
    await table.getByRole('link', { name: 'Show alert instance down on alpha-01' }).click();
    await page.waitForURL((u) => u.pathname === `/notifications/show/${id}`);
  });

  it.skipIf(!hasAlertDelete)('deletes an alert from Instance Down after the confirmation', async () => {
    const { page } = b;
    await page.goto('/');
    const table = card(page, 'Instance Down');
    await shown(table.getByText(`Showing 1-25 of ${FIRING} items`));
    await table.getByRole('button', { name: 'Delete alert instance down on alpha-02' }).click();
    const confirm = page.getByRole('alertdialog');
    await shown(confirm.getByText('Are you sure to delete this alert?'));
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await shown(table.getByText(`Showing 1-25 of ${FIRING - 1} items`));
    await gone(table.getByRole('row').filter({ hasText: 'alpha-02' }));
    await shown(card(page, 'Alerts Summary').getByRole('img', { name: `Firing alerts: ${FIRING - 1}` }));
  });

  it('moves the Alerts Summary at once when alert.resolve runs from the palette on the dashboard (issue 13)', async () => {
    const { page } = b;
    await page.goto('/');
    const before = await analytics<{ total_alerts_firing: number }>('alerts-summary');
    const alerts = card(page, 'Alerts Summary');
    await shown(alerts.getByRole('img', { name: `Firing alerts: ${before.total_alerts_firing}` }));
    await runFromPalette(page, 'Resolve alert', ['beta-32']);
    // The note is free text: typed and sent with Enter (no option to wait for).
    const input = page.getByRole('dialog').getByRole('combobox');
    await input.fill('Host answers again');
    await input.press('Enter');
    await eventually(async () => (await analytics<{ total_alerts_firing: number }>('alerts-summary')).total_alerts_firing).toBe(before.total_alerts_firing - 1);
    // Still on the dashboard, no reload: the command's invalidation alone must refresh the ring.
    expect(new URL(page.url()).pathname).toBe('/');
    await shown(alerts.getByRole('img', { name: `Firing alerts: ${before.total_alerts_firing - 1}` }), 5_000);
    expect(await alerts.locator('dt:has-text("Firing") + dd').textContent()).toBe(String(before.total_alerts_firing - 1));
    await gone(card(page, 'Instance Down').getByRole('row').filter({ hasText: 'beta-32' }), 5_000);
  });

  it('renders dark when the system prefers dark', async () => {
    const d = await openBrowser(server.url, { colorScheme: 'dark' });
    try {
      await signIn(d.page);
      await shown(card(d.page, 'Instance Summary').getByRole('img', { name: /Running instances: 11\// }));
      expect(await d.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      const [r, g, bl] = await card(d.page, 'Instance Summary').evaluate((el) => {
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.fillStyle = getComputedStyle(el).backgroundColor;
        ctx.fillRect(0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data];
      });
      expect(r! + g! + bl!).toBeLessThan(150);
    } finally {
      await d.close();
    }
  });
});

