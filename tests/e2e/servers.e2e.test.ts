import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine, gone, openBrowser, openPalette, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { freePort, startServer, type RunningServer } from './server-process';

/**
 * The Servers List (SPEC §2) against its own server with a small live demo fleet: four
 * simulated exporters (web-01, edge-01, api-01, db-01) scraped every 2 s, so the figures on
 * the screen are real scrapes, not fixtures. The shared global server runs without a fleet.
 */

interface ApiServer {
  _id: string;
  hostname: string;
  ipaddress: string;
  agentPort: number;
  operating_system: string;
  cpuUsage: number | null;
  networkUsage: number | null;
  uptime: number | null;
}
type Session = Awaited<ReturnType<typeof apiSession>>;

const DEMO = ['web-01', 'edge-01', 'api-01', 'db-01'];
const PERCENT = /^\d+\.\d%$/;

async function listServers(admin: Session, filter: Record<string, unknown> = {}): Promise<ApiServer[]> {
  const r = await admin.call<{ result: { data: ApiServer[] } }>('POST', 'servers/metrics/all', { pageNumber: 1, pageSize: 100, filter });
  return r.body.result.data;
}
const findServer = async (admin: Session, hostname: string) => (await listServers(admin, { hostname: { eq: hostname } }))[0];
const createServer = (admin: Session, body: { hostname: string; ipaddress: string; operating_system: 'linux' | 'windows' }) =>
  admin.call<{ result: ApiServer }>('POST', 'servers', body).then((r) => r.body.result);

/** SPEC §2/§9 card colours, from the figure shown: red above 90, orange above 70, else green. */
const toneOf = (text: string) => {
  const v = Number.parseFloat(text);
  return v > 90 ? 'red' : v > 70 ? 'orange' : 'green';
};
async function expectUsageColour(figure: Locator): Promise<void> {
  const text = (await figure.textContent())!.trim();
  expect(text).toMatch(PERCENT);
  expect(await figure.getAttribute('class')).toContain(`text-${toneOf(text)}-`);
}

/** The text of whatever an input's aria-describedby points at (react-aria puts field errors there). */
async function description(input: Locator): Promise<string> {
  return input.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

const card = (page: Page, hostname: string) => page.getByRole('article', { name: hostname, exact: true });
const row = (page: Page, hostname: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name: hostname, exact: true }) });

describe('servers list', () => {
  let server: RunningServer;
  let admin: Session;
  let b: Browser;

  beforeAll(async () => {
    server = await startServer({ env: { DEMO_FLEET: '1', DEMO_FLEET_SIZE: '4', DEMO_FLEET_PORT: String(await freePort()), SCRAPE_INTERVAL: '2' } });
    admin = await apiSession(server.url);
    // Network usage is a rate: it needs two scrapes of every host.
    for (const deadline = Date.now() + 60_000; ; ) {
      const ready = (await listServers(admin)).filter((s) => DEMO.includes(s.hostname) && s.cpuUsage !== null && s.networkUsage !== null);
      if (ready.length === DEMO.length) break;
      if (Date.now() > deadline) throw new Error(`the demo fleet has no figures after 60 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    b = await openBrowser(server.url);
    await signIn(b.page);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  it('shows the demo servers with live figures in cards, coloured by usage', async () => {
    const { page } = b;
    await page.getByRole('link', { name: 'Servers' }).click();
    await page.waitForURL((u) => u.pathname === '/servers');
    await shown(page.getByRole('heading', { name: 'Servers List', level: 1 }));
    const api = await listServers(admin);
    for (const hostname of DEMO) {
      const c = card(page, hostname);
      await shown(c);
      const s = api.find((x) => x.hostname === hostname)!;
      await shown(c.getByText(s.ipaddress, { exact: true }));
      await shown(c.getByText('Running'));
      for (const label of ['CPU', 'Memory', 'Disk']) {
        await expectUsageColour(c.locator(`div:has(> [role="meter"][aria-label="${label}"])`).locator('span.tabular-nums'));
      }
      // B, KB, MB … with one decimal, per second; days, hours, minutes, seconds; relative time.
      expect(await c.locator('dt:has-text("Network") + dd').textContent()).toMatch(/^\d+\.\d (B|KB|MB|GB|TB|PB)\/s$/);
      expect(await c.locator('dt:has-text("Uptime") + dd').textContent()).toMatch(/^(\d+d )?(\d+h )?(\d+m )?\d+s$/);
      expect(await c.locator('dt:has-text("Last Updated") + dd').textContent()).toMatch(/^(just now|\d+ minutes? ago)$/);
    }
    // Live: the uptime moves on without a reload (the list refetches with the scrape interval).
    const uptime = card(page, 'web-01').locator('dt:has-text("Uptime") + dd');
    const before = await uptime.textContent();
    await expect.poll(() => uptime.textContent(), { timeout: 20_000, interval: 500 }).not.toBe(before);
  });

  it('shows a silent exporter as red Down and a server without an agent in orange, their figures as --', async () => {
    const { page } = b;
    // An agent that was configured but does not answer (nothing listens on that port) …
    const silent = await admin.call<{ result: ApiServer }>('POST', 'servers', {
      hostname: 'silent-01',
      ipaddress: '127.0.0.1',
      agentPort: await freePort(),
      operating_system: 'linux',
      isAgentConfigured: true,
    });
    expect(silent.status).toBe(201);
    // … and one registered a moment ago, never scraped.
    await createServer(admin, { hostname: 'fresh-01', ipaddress: '10.75.0.1', operating_system: 'windows' });
    await page.goto('/servers');
    const down = card(page, 'silent-01');
    await shown(down.getByText('Down', { exact: true }), 30_000);
    expect(await down.getByText('Down', { exact: true }).getAttribute('class')).toContain('text-red-');
    const fresh = card(page, 'fresh-01');
    const state = fresh.getByText('unknown', { exact: true });
    await shown(state);
    expect(await state.getAttribute('class')).toContain('text-orange-');
    for (const c of [down, fresh]) {
      for (const label of ['CPU', 'Memory', 'Disk', 'Network', 'Uptime']) expect(await c.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]').textContent()).toBe('--');
    }
    await page.getByRole('button', { name: 'Table' }).click();
    await shown(row(page, 'silent-01').getByText('Down', { exact: true }));
    expect((await row(page, 'fresh-01').getByRole('cell').allTextContents()).slice(3, 7)).toEqual(['--', '--', '--', '--']);
    for (const s of [silent.body.result, await findServer(admin, 'fresh-01')]) await admin.call('DELETE', `servers/${s!._id}`);
  });

  it('switches to the table, which has SPEC’s columns, and back; the choice is in the URL', async () => {
    const { page } = b;
    await page.goto('/servers');
    await page.getByRole('button', { name: 'Table' }).click();
    await page.waitForURL(/view=table/);
    const table = page.getByRole('table', { name: 'Servers' });
    await shown(table);
    const headers = (await table.getByRole('columnheader').allTextContents()).map((t) => t.replace(/[↕▲▼]/g, '').trim());
    expect(headers).toEqual(['Hostname', 'IP Address', 'State', 'CPU Usage', 'Memory Usage', 'Disk Usage', 'Network Usage', 'Actions']);
    for (const hostname of DEMO) {
      const r = row(page, hostname);
      await shown(r);
      const cells = r.getByRole('cell');
      await shown(cells.nth(2).getByText('Running'));
      for (const i of [3, 4, 5]) await expectUsageColour(cells.nth(i).locator('span'));
      expect(await cells.nth(6).textContent()).toMatch(/^\d+\.\d (B|KB|MB|GB|TB|PB)\/s$/);
      await shown(r.getByRole('button', { name: `Copy IP Address` }).or(r.getByRole('button', { name: /^Copy IP Address/ })));
    }
    // The view survives a reload; a click on a row (not on a control) opens the detail by id.
    await page.reload();
    await shown(row(page, 'db-01'));
    const db = (await findServer(admin, 'db-01'))!;
    await row(page, 'db-01').getByRole('cell').nth(5).click();
    await page.waitForURL((u) => u.pathname === `/servers/show/${db._id}`);
    await page.goBack();
    await page.getByRole('button', { name: 'Cards' }).click();
    await shown(card(page, 'db-01'));
  });

  it('searches by hostname (debounced, in the URL) in cards and table', async () => {
    const { page } = b;
    await page.goto('/servers');
    await shown(card(page, 'web-01'));
    const t0 = Date.now();
    await page.getByPlaceholder('Search by Hostname').fill('api');
    // 500 ms debounce: nothing is asked while the person types.
    if (Date.now() - t0 < 400) expect(page.url()).not.toContain('hostname=');
    await page.waitForURL(/hostname=api/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    await shown(card(page, 'api-01'));
    await gone(card(page, 'web-01'));
    expect(await page.getByRole('article').count()).toBe(1);
    await page.getByRole('button', { name: 'Table' }).click();
    await shown(row(page, 'api-01'));
    expect(await page.getByRole('table', { name: 'Servers' }).getByRole('row').count()).toBe(2);
    // Nothing matches: a way back.
    await page.getByPlaceholder('Search by Hostname').fill('no-such-host');
    await shown(page.getByText('No servers match “no-such-host”.'));
    await page.getByRole('button', { name: 'Clear search' }).click();
    await shown(row(page, 'web-01'));
    expect(new URL(page.url()).searchParams.get('hostname')).toBeNull();
  });

  it('creates a server with the mouse, shows the 409 on the IP field, edits it and deletes it after the acknowledgement', async () => {
    const { page } = b;
    await page.goto('/servers?view=table');
    await page.getByRole('link', { name: 'Add server' }).click();
    await page.waitForURL((u) => u.pathname === '/servers/create');
    const drawer = page.getByRole('dialog', { name: 'Create Server' });
    await shown(drawer);
    // Every field says what is wrong before anything is sent.
    await drawer.getByRole('button', { name: 'Create', exact: true }).click();
    await shown(drawer.getByText('Hostname is required'));
    await shown(drawer.getByText('IP address is required'));
    await shown(drawer.getByText('Choose the operating system'));
    await drawer.getByRole('textbox', { name: 'Hostname' }).fill('mouse-01');
    await drawer.getByRole('textbox', { name: 'IP Address' }).fill('10.77.0.300');
    await drawer.getByRole('button', { name: /Operating System/ }).click();
    await page.getByRole('option', { name: 'Windows' }).click();
    await drawer.getByRole('button', { name: 'Create', exact: true }).click();
    await shown(drawer.getByText('IP address must be an IPv4 or IPv6 address'));
    await drawer.getByRole('textbox', { name: 'IP Address' }).fill('10.77.0.1');
    await drawer.getByRole('button', { name: 'Create', exact: true }).click();
    // Next comes the agent set-up, on the new server's detail.
    await page.waitForURL(/\/servers\/show\//);
    const created = await findServer(admin, 'mouse-01');
    expect(created).toMatchObject({ ipaddress: '10.77.0.1', operating_system: 'windows', agentPort: 9100 });
    expect(page.url()).toContain(`/servers/show/${created!._id}`);

    // The same address again: the API's 409 lands on the IP Address field.
    await page.goto('/servers?view=table');
    await page.getByRole('link', { name: 'Add server' }).click();
    await shown(drawer);
    await drawer.getByRole('textbox', { name: 'Hostname' }).fill('mouse-dup');
    await drawer.getByRole('textbox', { name: 'IP Address' }).fill('10.77.0.1');
    await drawer.getByRole('button', { name: /Operating System/ }).click();
    await page.getByRole('option', { name: 'Linux' }).click();
    await drawer.getByRole('button', { name: 'Create', exact: true }).click();
    const ip = drawer.getByRole('textbox', { name: 'IP Address' });
    await shown(drawer.getByText('A server with address 10.77.0.1:9100 is already registered'));
    expect(await ip.getAttribute('aria-invalid')).toBe('true');
    expect(await description(ip)).toContain('A server with address 10.77.0.1:9100 is already registered');
    expect(await findServer(admin, 'mouse-dup')).toBeUndefined();
    // Leaving a filled form asks first (SPEC §2 unsaved changes).
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    await drawer.getByRole('button', { name: 'Cancel' }).click();
    await gone(drawer);
    expect(asked).toBe('You have unsaved changes. Leave anyway?');

    // Edit from the table's Settings.
    await row(page, 'mouse-01').getByRole('button', { name: 'Settings of mouse-01' }).click();
    const edit = page.getByRole('dialog', { name: 'Update Server' });
    await shown(edit);
    const hostname = edit.getByRole('textbox', { name: 'Hostname' });
    await expect.poll(() => hostname.inputValue()).toBe('mouse-01');
    await hostname.fill('mouse-02');
    await edit.getByRole('button', { name: 'Update', exact: true }).click();
    await gone(edit);
    await shown(row(page, 'mouse-02'));
    expect(await findServer(admin, 'mouse-02')).toMatchObject({ _id: created!._id, ipaddress: '10.77.0.1' });

    // Delete: the Windows steps, and the button stays disabled until the acknowledgement.
    await row(page, 'mouse-02').getByRole('button', { name: 'Delete mouse-02' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Server' });
    await shown(dialog);
    await shown(dialog.getByText('Uninstall the agent (Windows)'));
    await shown(dialog.getByText('Stop-Service windows_exporter'));
    await shown(dialog.getByText('sc.exe delete windows_exporter'));
    await shown(dialog.getByText('Remove the firewall rule for port 9100'));
    const remove = dialog.getByRole('button', { name: 'Delete', exact: true });
    expect(await remove.isDisabled()).toBe(true);
    const ack = dialog.getByRole('checkbox', { name: 'I understand the consequences of deleting this server.' });
    await dialog.getByText('I understand the consequences of deleting this server.').click();
    expect(await ack.isChecked()).toBe(true);
    expect(await remove.isDisabled()).toBe(false);
    await dialog.getByText('I understand the consequences of deleting this server.').click();
    expect(await remove.isDisabled()).toBe(true);
    await dialog.getByText('I understand the consequences of deleting this server.').click();
    await remove.click();
    await gone(dialog);
    await gone(row(page, 'mouse-02'));
    expect((await admin.call('GET', `servers/${created!._id}`)).status).toBe(404);

    // The dialog is reset for the next server: nothing ticked, the Linux steps.
    await row(page, 'web-01').getByRole('button', { name: 'Delete web-01' }).click();
    await shown(dialog.getByText('Uninstall the agent (Linux)'));
    await shown(dialog.getByText('sudo systemctl stop node_exporter'));
    await shown(dialog.getByText('sudo systemctl daemon-reload'));
    expect(await ack.isChecked()).toBe(false);
    expect(await remove.isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await gone(dialog);
    expect(await findServer(admin, 'web-01')).toBeDefined();
  });

  it('works from the keyboard: view switch, card menu, acknowledgement and delete', async () => {
    const { page } = b;
    await createServer(admin, { hostname: 'kbd-01', ipaddress: '10.76.0.1', operating_system: 'linux' });
    await page.goto('/servers?hostname=kbd');
    await shown(card(page, 'kbd-01'));
    await page.getByRole('button', { name: 'Table' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/view=table/);
    await shown(row(page, 'kbd-01'));
    await page.getByRole('button', { name: 'Cards' }).focus();
    await page.keyboard.press('Space');
    await shown(card(page, 'kbd-01'));

    await page.getByRole('button', { name: 'Actions for kbd-01' }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await shown(menu);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete Server' });
    await shown(dialog);
    const ack = dialog.getByRole('checkbox', { name: 'I understand the consequences of deleting this server.' });
    // Tab walks the copy buttons to the checkbox; Space ticks it; Tab reaches Delete.
    for (let i = 0; i < 20 && !(await ack.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await ack.isChecked()).toBe(true);
    const remove = dialog.getByRole('button', { name: 'Delete', exact: true });
    for (let i = 0; i < 5 && !(await remove.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await gone(dialog);
    await expect.poll(async () => await findServer(admin, 'kbd-01')).toBeUndefined();
    await shown(page.getByText('No servers match “kbd”.'));
  });

  it('creates, opens, edits and deletes a server from the palette; entity search finds it by hostname and IP', async () => {
    const { page } = b;
    await page.goto('/servers');
    let input = await openPalette(page);
    await input.fill('Create server');
    await input.press('Enter');
    for (const value of ['pal-01', '10.78.0.1']) {
      await page.keyboard.type(value);
      await page.keyboard.press('Enter');
    }
    await input.fill('Linux');
    await page.getByRole('option', { name: 'Linux' }).click();
    // The agent port is optional: Enter keeps 9100.
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await findServer(admin, 'pal-01'))?.agentPort).toBe(9100);
    const pal = (await findServer(admin, 'pal-01'))!;

    // Entity rows: by hostname …
    input = await openPalette(page);
    await input.fill('pal-01');
    await shown(page.getByRole('option', { name: /pal-01/ }));
    await input.press('Enter');
    await page.waitForURL((u) => u.pathname === `/servers/show/${pal._id}`);
    // … and by IP address (a demo server's).
    const api01 = (await findServer(admin, 'api-01'))!;
    input = await openPalette(page);
    await input.fill(api01.ipaddress);
    await shown(page.getByRole('option', { name: /api-01/ }));
    await input.press('Enter');
    await page.waitForURL((u) => u.pathname === `/servers/show/${api01._id}`);

    // Edit: pick the server, give a new hostname, skip the rest.
    input = await openPalette(page);
    await input.fill('Edit server');
    await input.press('Enter');
    await input.fill('pal-01');
    await shown(page.getByRole('option', { name: /pal-01/ }));
    await input.press('Enter');
    await page.keyboard.type('pal-02');
    await page.keyboard.press('Enter'); // hostname
    await page.keyboard.press('Enter'); // IP address: keep
    await page.keyboard.press('Enter'); // operating system: (skip)
    await page.keyboard.press('Enter'); // agent port: keep
    await expect.poll(async () => (await findServer(admin, 'pal-02'))?._id).toBe(pal._id);

    // Delete: the acknowledgement is one of the steps; "No" refuses and deletes nothing.
    for (const answer of ['No', 'Yes']) {
      input = await openPalette(page);
      await input.fill('Delete server');
      await input.press('Enter');
      await input.fill('pal-02');
      await shown(page.getByRole('option', { name: /pal-02/ }));
      await input.press('Enter');
      await shown(page.getByRole('option', { name: answer, exact: true }));
      await input.fill(answer);
      await page.getByRole('option', { name: answer, exact: true }).click();
      if (answer === 'No') {
        await shown(page.getByRole('status').getByText(/I understand the consequences of deleting this server/));
        expect(await findServer(admin, 'pal-02')).toBeDefined();
      }
    }
    await expect.poll(async () => await findServer(admin, 'pal-02')).toBeUndefined();
    // The run ends (and writes its history record) after the list refetch; the next test's
    // navigation must not cut it short, so wait for its closing notice.
    await shown(page.getByRole('status').getByText(/Deleted server/));
  });

  it('creates, shows, edits and deletes a server from the command line', async () => {
    const { page } = b;
    await page.goto('/servers');
    await commandLine(page, 'server.create --hostname cli-01 --ipaddress 10.79.0.1 --os linux');
    await shown(page.getByText(/Created server/));
    const cli = (await findServer(admin, 'cli-01'))!;
    expect(cli).toMatchObject({ ipaddress: '10.79.0.1', operating_system: 'linux', agentPort: 9100 });
    await commandLine(page, 'server.create --hostname cli-dup --ipaddress 10.79.0.1 --os windows');
    await shown(page.getByText('A server with address 10.79.0.1:9100 is already registered'));
    await commandLine(page, 'server.show cli-01');
    await page.waitForURL((u) => u.pathname === `/servers/show/${cli._id}`);
    await commandLine(page, 'server.edit 10.79.0.1 --hostname cli-02 --port 9182');
    await expect.poll(async () => await findServer(admin, 'cli-02')).toMatchObject({ _id: cli._id, agentPort: 9182 });
    await commandLine(page, 'server.delete cli-02');
    await shown(page.getByText(/confirm with --acknowledge/));
    expect(await findServer(admin, 'cli-02')).toBeDefined();
    await commandLine(page, 'server.delete cli-02 --acknowledge');
    await expect.poll(async () => await findServer(admin, 'cli-02')).toBeUndefined();
    await commandLine(page, 'server.delete nowhere-host --acknowledge');
    await shown(page.getByText('No server matches "nowhere-host"'));
    await page.keyboard.press('Escape');
  });

  it('records the screen’s, palette’s and command line’s runs in the shared history', async () => {
    const expected = [
      'server.create:ui:ok',
      'server.create:ui:error',
      'server.edit:ui:ok',
      'server.delete:ui:ok',
      'server.create:palette:ok',
      'server.edit:palette:ok',
      'server.delete:palette:ok',
      'server.create:cmdline:ok',
      'server.create:cmdline:error',
      'server.edit:cmdline:ok',
      'server.delete:cmdline:ok',
    ];
    // A run records itself after its effect shows, so the newest record may still be on its way.
    await expect.poll(() => admin.historyMissing(['server.create', 'server.edit', 'server.delete'], expected), { timeout: 15_000 }).toEqual([]);
    // The deletes refused before any call (not acknowledged, no such server) changed nothing on
    // the server: History, the server's record, holds none of them (issue 25 §3).
    expect(await admin.historyMissing(['server.delete'], ['server.delete:palette:refused', 'server.delete:cmdline:refused', 'server.delete:cmdline:error'])).toHaveLength(3);
  });

  it('shows 12 skeleton cards while loading, de-duplicates cards by _id, an empty state, and an error with Retry', async () => {
    const { page } = b;
    const list = '**/api/servers/metrics/all';
    // Slow answer: skeletons. Slow enough to outlast the screen's code download, which the route
    // loader's request now runs beside instead of after.
    // Each held answer is let go before the route is taken away: a handler still waiting when the
    // next reload starts would answer a request that is no longer its own.
    const held: Promise<void>[] = [];
    await page.route(list, (route) => {
      const answer = new Promise<void>((r) => setTimeout(r, 4000)).then(() => route.continue());
      held.push(answer);
      return answer;
    });
    await page.goto('/servers');
    const grid = page.locator('[aria-busy="true"]');
    await shown(grid);
    expect(await grid.locator(':scope > div[aria-hidden="true"]').count()).toBe(12);
    await shown(card(page, 'db-01'));
    await Promise.all(held);
    await page.unrouteAll({ behavior: 'wait' });

    // The same server twice in one answer (it moved while paging): one card.
    await page.route(list, async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      body.result.data = [...body.result.data, ...body.result.data];
      await route.fulfill({ response: res, json: body });
    });
    await page.reload();
    await shown(card(page, 'db-01'));
    expect(await page.getByRole('article').count()).toBe((await listServers(admin)).length);
    await page.unrouteAll({ behavior: 'wait' });

    // No servers at all: the empty state offers to add one.
    await page.route(list, (route) => route.fulfill({ json: { result: { data: [], count: 0 } } }));
    await page.reload();
    await shown(page.getByRole('heading', { name: 'No servers yet' }));
    await page.unrouteAll({ behavior: 'wait' });

    // A failed load says so and retries on request.
    await page.route(list, (route) => route.fulfill({ status: 500, json: { message: 'database unavailable' } }));
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load servers.' });
    await shown(alert, 30_000);
    await page.unrouteAll({ behavior: 'wait' });
    await alert.getByRole('button', { name: 'Retry' }).click();
    await gone(alert);
    await shown(card(page, 'db-01'));
  });

  it('lets a user-role account read the list but not change servers', async () => {
    const viewer = { username: 'viewer', email: 'viewer@example.com', password: 'viewer-password' };
    expect((await admin.call('POST', 'users', { ...viewer, phonenumber: '+1 555 0110', role: 'user' })).status).toBe(201);
    const v = await openBrowser(server.url);
    try {
      const { page } = v;
      await signIn(page, viewer.email, viewer.password);
      await page.goto('/servers?view=table');
      await shown(row(page, 'db-01'));
      const add = page.getByRole('link', { name: 'Add server' });
      expect(await add.getAttribute('aria-disabled')).toBe('true');
      expect(await row(page, 'db-01').getByRole('button', { name: 'Delete db-01' }).isDisabled()).toBe(true);
      expect(await row(page, 'db-01').getByRole('button', { name: 'Settings of db-01' }).count()).toBe(0);
      // The card menu greys out what the role cannot do.
      await page.getByRole('button', { name: 'Cards' }).click();
      await page.getByRole('button', { name: 'Actions for db-01' }).click();
      expect(await page.getByRole('menuitem', { name: 'Delete' }).getAttribute('aria-disabled')).toBe('true');
      await page.keyboard.press('Escape');
      // Typing the URL of the form sends the viewer back with the reason.
      await page.goto('/servers/create');
      await page.waitForURL((u) => u.pathname === '/servers');
      await shown(page.getByText('Only Admin or sysadmin accounts can do this.'));
      // And the command line refuses the same way.
      await commandLine(page, 'server.delete db-01 --acknowledge');
      await shown(page.getByRole('dialog', { name: 'Command line' }).getByText('Only Admin or sysadmin accounts can do this.'));
      expect(await findServer(admin, 'db-01')).toBeDefined();
    } finally {
      await v.close();
    }
  });

  it('renders dark when the system prefers dark; 3, 2 or 1 card columns by width, no switch on a phone', async () => {
    const d = await openBrowser(server.url, { colorScheme: 'dark' });
    try {
      await signIn(d.page);
      await d.page.goto('/servers');
      await shown(card(d.page, 'db-01'));
      expect(await d.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      // Tailwind 4 writes oklch(); a canvas turns any CSS colour into RGB.
      const [r, g, bl] = await card(d.page, 'db-01').evaluate((el) => {
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.fillStyle = getComputedStyle(el).backgroundColor;
        ctx.fillRect(0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data];
      });
      expect(r! + g! + bl!).toBeLessThan(150);

      // SPEC §2 grid: 3 columns on extra-large screens, 2 on medium and large, 1 below; a phone
      // gets cards without the switch, whatever the URL says.
      const columns = () => card(d.page, 'db-01').evaluate((el) => getComputedStyle(el.parentElement!).gridTemplateColumns.split(' ').length);
      expect(await columns()).toBe(3);
      await d.page.setViewportSize({ width: 1000, height: 800 });
      await expect.poll(columns).toBe(2);
      await d.page.setViewportSize({ width: 400, height: 800 });
      await d.page.goto('/servers?view=table');
      await shown(card(d.page, 'db-01'));
      expect(await columns()).toBe(1);
      expect(await d.page.getByRole('button', { name: 'Table' }).count()).toBe(0);
      expect(await d.page.getByRole('table').count()).toBe(0);
    } finally {
      await d.close();
    }
  });
});
