import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine, gone, openBrowser, runFromPalette, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { freePort, startServer, type RunningServer } from './server-process';

/**
 * The server detail (SPEC §2) against a console with a live demo fleet: 9 simulated hosts
 * (8 Linux, win-ad-01 on Windows), scraped every 2 s. Its own server, since the shared one runs
 * without the fleet.
 */

const HOUR = 3_600_000;

/** Opens the palette, picks a command by title, then answers its arguments in order ('' skips one). */
const isChart = (panel: number) => (r: Request) => r.url().includes('/api/servers/chart/') && new URL(r.url()).searchParams.get('panel') === String(panel);
const span = (r: Request) => {
  const q = new URL(r.url()).searchParams;
  return Number(q.get('to')) - Number(q.get('from'));
};
/** expect.poll with room for a command's round trips (its default gives up after 1 s). */
const eventually = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(fn, { timeout: 10_000, interval: 100, ...options });

const search = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

describe('server detail', () => {
  let server: RunningServer;
  let b: Browser;
  let admin: Awaited<ReturnType<typeof apiSession>>;
  const ids: Record<string, string> = {};
  const previousTz = process.env.TZ;

  beforeAll(async () => {
    server = await startServer({ env: { DEMO_FLEET: '1', DEMO_FLEET_SIZE: '9', DEMO_FLEET_PORT: String(await freePort()), SCRAPE_INTERVAL: '2' } });
    admin = await apiSession(server.url);
    // Wait for the fleet and a first scrape of it, so figures are there to show.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const r = await admin.call<{ result: { data: { _id: string; hostname: string; cpuUsage: number | null }[] } }>('POST', 'servers/all', { pageNumber: 1, pageSize: 50 });
      for (const s of r.body.result.data) ids[s.hostname] = s._id;
      if (r.body.result.data.filter((s) => s.cpuUsage !== null).length >= 8) break;
      if (Date.now() > deadline) throw new Error(`the demo fleet did not report: ${JSON.stringify(r.body)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    // Chromium takes the zone from its environment: a zone far from UTC makes UTC/Local visible.
    process.env.TZ = 'Asia/Kolkata';
    b = await openBrowser(server.url);
    process.env.TZ = previousTz;
    await signIn(b.page);
  }, 180_000);

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  it('opens a server from the Servers List and shows its header and live gauges', async () => {
    const { page } = b;
    await page.getByRole('link', { name: 'Servers' }).click();
    await page.waitForURL((u) => u.pathname === '/servers');
    await page.getByRole('link', { name: 'web-01', exact: true }).click();
    await page.waitForURL((u) => u.pathname === `/servers/show/${ids['web-01']}`);

    await shown(page.getByRole('heading', { level: 1, name: 'web-01' }));
    expect(await page.getByTestId('server-ip').textContent()).toMatch(/^127\.0\.\d+\.\d+$/);
    await shown(page.getByRole('img', { name: 'Linux' }));
    await shown(page.getByRole('status', { name: 'State: Running' }));
    await shown(page.getByRole('switch', { name: 'Maintenance' }));
    await shown(page.getByRole('heading', { name: 'Server Utilization' }));
    await shown(page.getByRole('heading', { name: 'Server Saturation' }));

    // Gauges carry the figures of the last scrape, and they move on their own.
    const cpu = page.getByRole('meter', { name: 'CPU', exact: true });
    await eventually(() => cpu.getAttribute('aria-valuetext')).toMatch(/^\d+(\.\d)?%$/);
    await eventually(() => page.getByRole('meter', { name: 'Memory', exact: true }).getAttribute('aria-valuetext')).toMatch(/^\d+(\.\d)?%$/);
    await eventually(() => page.getByRole('meter', { name: 'Disk', exact: true }).getAttribute('aria-valuetext')).toMatch(/^\d+(\.\d)?%$/);
    // SPEC §9 gauge colours: db-01 runs with its memory above 80 % (red); web-01 is calm.
    expect(await cpu.getAttribute('data-tone')).toBe('ok');
    const uptime = page.locator('[data-figure="Uptime"]');
    await eventually(() => uptime.textContent()).toMatch(/\d+d \d+h/);
    const first = await uptime.textContent();
    await eventually(() => uptime.textContent(), { timeout: 20_000 }).not.toBe(first);

    // Linux: Overview first, with its charts for the last hour.
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual(['Overview', 'CPU', 'Memory', 'Network', 'Disk', 'Services', 'Notifications', 'Alerts Configuration']);
    expect(await page.getByRole('tab', { name: 'Overview' }).getAttribute('aria-selected')).toBe('true');
    await shown(page.getByRole('region', { name: 'CPU Basic' }).getByRole('group', { name: 'CPU Basic over time' }));
    expect(await page.getByRole('radio', { name: 'Last 1 Hour' }).getAttribute('aria-checked')).toBe('true');
  });

  it('opens a server from the command line and from the palette', async () => {
    const { page } = b;
    await commandLine(page, 'server.show db-01');
    await page.waitForURL((u) => u.pathname === `/servers/show/${ids['db-01']}`);
    await shown(page.getByRole('heading', { level: 1, name: 'db-01' }));
    await eventually(() => page.getByRole('meter', { name: 'Memory', exact: true }).getAttribute('data-tone')).toBe('error');
    await runFromPalette(page, 'Show server', ['api-01']);
    await page.waitForURL((u) => u.pathname === `/servers/show/${ids['api-01']}`);
    await shown(page.getByRole('heading', { level: 1, name: 'api-01' }));
  });

  it('toggles maintenance with the mouse, the command line and the palette, and keeps it after a reload', async () => {
    const { page } = b;
    const id = ids['web-01']!;
    const suppress = async () => (await admin.call<{ result: { suppressAlarm: string } }>('GET', `servers/${id}`)).body.result.suppressAlarm;
    await page.goto(`/servers/show/${id}`);
    const toggle = page.getByRole('switch', { name: 'Maintenance' });
    await shown(toggle);
    expect(await toggle.isChecked()).toBe(false);

    await page.locator('label', { hasText: 'Maintenance' }).click();
    await eventually(suppress).toBe('yes');
    await eventually(() => toggle.isChecked()).toBe(true);
    await page.reload();
    await shown(page.getByRole('heading', { level: 1, name: 'web-01' }));
    await eventually(() => page.getByRole('switch', { name: 'Maintenance' }).isChecked()).toBe(true);

    await commandLine(page, 'server.toggle-maintenance web-01 off');
    await eventually(suppress).toBe('no');
    await eventually(() => page.getByRole('switch', { name: 'Maintenance' }).isChecked()).toBe(false);

    await runFromPalette(page, 'Toggle server maintenance', ['web-01', 'On']);
    await eventually(suppress).toBe('yes');
    await eventually(() => page.getByRole('switch', { name: 'Maintenance' }).isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('label', { hasText: 'Maintenance' }).click();
    await eventually(suppress).toBe('no');

    // The incident log has every flip, with where it came from.
    const r = await admin.call<{ result: { data: { command: string; source: string; outcome: string }[] } }>('POST', 'command-history/all', {
      pageNumber: 1,
      pageSize: 50,
      filter: { command: { in: ['server.toggle-maintenance'] } },
    });
    const seen = new Set(r.body.result.data.map((h) => `${h.source}:${h.outcome}`));
    for (const k of ['ui:ok', 'cmdline:ok', 'palette:ok']) expect(seen, k).toContain(k);
  });

  it('switches server with the selector and by command, keeping the tab and range', async () => {
    const { page } = b;
    await page.goto(`/servers/show/${ids['web-01']}?tab=memory&range=6h`);
    await shown(page.getByRole('heading', { level: 1, name: 'web-01' }));
    const selector = page.getByRole('combobox', { name: 'Switch Server' });
    await selector.click();
    await selector.fill('cach');
    await page.getByRole('option', { name: /cache-01/ }).click();
    await page.waitForURL((u) => u.pathname === `/servers/show/${ids['cache-01']}`);
    await shown(page.getByRole('heading', { level: 1, name: 'cache-01' }));
    expect(search(page)).toMatchObject({ tab: 'memory', range: '6h' });
    expect(await page.getByRole('tab', { name: 'Memory' }).getAttribute('aria-selected')).toBe('true');

    await commandLine(page, 'server.switch edge-01');
    await page.waitForURL((u) => u.pathname === `/servers/show/${ids['edge-01']}`);
    await shown(page.getByRole('heading', { level: 1, name: 'edge-01' }));
    expect(search(page)).toMatchObject({ tab: 'memory', range: '6h' });
  });

  it('changes the tab and the time range by mouse and by command; the URL follows and the charts refetch', async () => {
    const { page } = b;
    await page.goto(`/servers/show/${ids['web-01']}`);
    await shown(page.getByRole('heading', { level: 1, name: 'web-01' }));

    // The newest window the Network Traffic chart (84) was asked for, for the auto-refresh check.
    let latestTo = 0;
    const track = (r: Request) => {
      if (isChart(84)(r)) latestTo = Math.max(latestTo, Number(new URL(r.url()).searchParams.get('to')));
    };
    page.on('request', track);
    // Tab by mouse: CPU Cores (panel 14) over the default last hour.
    let req = page.waitForRequest(isChart(14));
    await page.getByRole('tab', { name: 'CPU' }).click();
    await page.waitForURL(/tab=cpu/);
    expect(span(await req)).toBe(HOUR);
    await shown(page.getByRole('region', { name: 'CPU Cores' }).getByText(/^4$/));
    await shown(page.getByRole('region', { name: 'CPU Busy' }).getByRole('meter'));

    // Preset by mouse.
    req = page.waitForRequest((r) => isChart(77)(r) && span(r) === 3 * HOUR);
    await page.getByRole('radio', { name: 'Last 3 Hours' }).click();
    await req;
    expect(search(page)).toMatchObject({ tab: 'cpu', range: '3h' });

    // Custom range by mouse, typed in UTC.
    await page.getByRole('button', { name: 'Custom range' }).click();
    const form = page.getByRole('form', { name: 'Custom range' });
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);
    const from = Math.floor((now - 2 * HOUR) / 60_000) * 60_000;
    const to = Math.floor((now - 30 * 60_000) / 60_000) * 60_000;
    await form.getByLabel(/^Start/).fill(iso(from));
    await form.getByLabel(/^End/).fill(iso(to));
    req = page.waitForRequest((r) => isChart(77)(r) && new URL(r.url()).searchParams.get('from') === String(from));
    await form.getByRole('button', { name: 'Apply' }).click();
    expect(new URL((await req).url()).searchParams.get('to')).toBe(String(to));
    expect(search(page)).toMatchObject({ range: 'custom', from: String(from), to: String(to) });
    await gone(form);

    // A half pair is refused in the form.
    await page.getByRole('button', { name: 'Custom range' }).click();
    await form.getByLabel(/^End/).fill('');
    await form.getByRole('button', { name: 'Apply' }).click();
    await shown(form.getByRole('alert').getByText('Choose an end as well as a start.'));
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Tab and range by command line.
    req = page.waitForRequest(isChart(78));
    await commandLine(page, 'server.tab memory');
    await page.waitForURL(/tab=memory/);
    await req;
    req = page.waitForRequest((r) => isChart(78)(r) && span(r) === 6 * HOUR);
    await commandLine(page, 'server.time-range 6h');
    await req;
    expect(search(page)).toMatchObject({ tab: 'memory', range: '6h' });
    expect(search(page).from).toBeUndefined();

    // And by palette.
    req = page.waitForRequest((r) => isChart(84)(r) && span(r) === 12 * HOUR);
    await runFromPalette(page, 'Open server detail tab', ['Network']);
    await page.waitForURL(/tab=network/);
    // A preset range asks for no start and end (issue 24 §8): choosing it runs the command.
    await runFromPalette(page, 'Set chart time range', ['Last 12 Hours']);
    await req;
    expect(search(page)).toMatchObject({ tab: 'network', range: '12h' });

    // Auto-refresh: the interval is in the URL, and on its tick the charts ask for a window ending later.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /Auto-refresh/ }).click();
    await page.getByRole('option', { name: 'Every 30s' }).click();
    await page.waitForURL(/refresh=30s/);
    await commandLine(page, 'server.refresh-interval 10s');
    await page.waitForURL(/refresh=10s/);
    const before = latestTo;
    expect(before).toBeGreaterThan(0);
    await page.waitForRequest((r) => isChart(84)(r) && Number(new URL(r.url()).searchParams.get('to')) > before, { timeout: 15_000 });
    page.off('request', track);
  });

  it('shows chart times in UTC or local time, by mouse and by command', async () => {
    const { page } = b;
    await page.goto(`/servers/show/${ids['web-01']}?tab=cpu`);
    const caption = page.getByText(/refreshing every/);
    await shown(caption);
    expect(await caption.textContent()).toContain('UTC');
    expect(await page.getByRole('radio', { name: 'UTC' }).getAttribute('aria-checked')).toBe('true');

    await page.getByRole('radio', { name: 'Local' }).click();
    await page.waitForURL(/tz=local/);
    await eventually(() => caption.textContent()).not.toContain('UTC');
    // The browser runs in Asia/Kolkata: the window's start (an hour ago) reads 5:30 ahead of UTC.
    const [date, time] = (await caption.textContent())!.match(/(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})/)!.slice(1);
    const shownStart = Date.parse(`${date}T${time}Z`) - 5.5 * HOUR;
    expect(Math.abs(shownStart - (Date.now() - HOUR))).toBeLessThan(2 * 60_000);

    await commandLine(page, 'server.timezone utc');
    await page.waitForURL((u) => !u.searchParams.has('tz'));
    await eventually(() => caption.textContent()).toContain('UTC');
  });

  it('filters the services of a server by name and status, by mouse and by command', async () => {
    const { page } = b;
    await page.goto(`/servers/show/${ids['cache-01']}`);
    await page.getByRole('tab', { name: 'Services' }).click();
    await page.waitForURL(/tab=services/);
    await shown(page.getByRole('heading', { name: 'Services List' }));
    const rows = page.getByRole('table').locator('tbody tr');
    await shown(page.getByRole('cell', { name: 'ssh.service' }));
    const all = await rows.count();
    expect(all).toBeGreaterThan(3);
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(['Hostname', 'IP Address', 'Service', 'Status']);

    await page.getByPlaceholder('Search by name').fill('redis');
    await page.waitForURL(/q=redis/);
    await eventually(() => rows.count()).toBe(1);
    await shown(page.getByRole('cell', { name: 'redis-server.service' }));

    await page.getByPlaceholder('Search by name').fill('');
    await page.waitForURL((u) => !u.searchParams.has('q'));
    await page.getByRole('radio', { name: 'Active' }).click();
    await page.waitForURL(/status=up/);
    await eventually(async () => (await rows.count()) < all).toBe(true);
    for (const text of await rows.locator('td:nth-child(4)').allTextContents()) expect(text).toBe('Active');

    await commandLine(page, 'server.services-filter down');
    await page.waitForURL(/status=down/);
    await eventually(async () => new Set(await rows.locator('td:nth-child(4)').allTextContents())).toEqual(new Set(['Down']));

    await commandLine(page, 'server.services-filter all --name ssh');
    await page.waitForURL((u) => u.searchParams.get('q') === 'ssh' && !u.searchParams.has('status'));
    await eventually(() => rows.locator('td:nth-child(3)').allTextContents()).toEqual(['ssh.service']);
    await page.keyboard.press('Escape');
    expect(await page.getByPlaceholder('Search by name').inputValue()).toBe('ssh');

    await commandLine(page, 'server.services-filter --name nomatch-xyz');
    await shown(page.getByText('No services match these filters.'));
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await eventually(() => rows.count()).toBe(all);
  });

  it('gives Windows servers their tabs without Overview and a 5m refresh', async () => {
    const { page } = b;
    await page.goto(`/servers/show/${ids['win-ad-01']}`);
    await shown(page.getByRole('img', { name: 'Windows' }));
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual(['CPU', 'Memory', 'Network', 'Disk', 'Services', 'Notifications', 'Alerts Configuration']);
    expect(await page.getByRole('tab', { name: 'CPU' }).getAttribute('aria-selected')).toBe('true');
    await shown(page.getByText(/refreshing every 5m/));
    await shown(page.getByRole('region', { name: 'Processors' }).getByText(/^2$/));
    await page.getByRole('tab', { name: 'Disk' }).click();
    await shown(page.getByRole('region', { name: 'Hard Disk Usage' }).getByRole('meter', { name: /C:/ }));
  });

  it("draws a Windows server's CPU tab with its first chart in view: one-line tiles, CPU Load in cores, each CPU mode one colour on every chart", async () => {
    const { page } = b;
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(`/servers/show/${ids['win-ad-01']}?tab=cpu`);
    const panel = (id: number) => page.locator(`main section[data-panel="${id}"]`);
    // The header's gauges are not drawn again as 200 px tiles: stats and gauges are one line high.
    for (const id of [33, 19, 35]) {
      await shown(panel(id));
      expect((await panel(id).boundingBox())!.height, `panel ${id}`).toBeLessThanOrEqual(96);
    }
    await shown(panel(19).getByRole('meter'));
    // The first chart's drawing is at least half in view at 1400×900.
    const plot = panel(4).locator('canvas');
    await shown(plot);
    const p = (await plot.boundingBox())!;
    expect(Math.min(p.y + p.height, 900) - p.y, `CPU Load drawn at ${p.y}–${p.y + p.height}`).toBeGreaterThanOrEqual(p.height / 2);

    /** Each series of a chart's legend: its colour and the value it shows. */
    const legend = (id: number) =>
      panel(id)
        .locator('.u-legend tr.u-series')
        .evaluateAll((rows) =>
          rows
            .map((r) => ({ label: r.querySelector('.u-label')?.textContent ?? '', color: getComputedStyle(r.querySelector('.u-marker')!).borderTopColor, value: r.querySelector('.u-value')?.textContent ?? '' }))
            .filter((r) => r.label !== 'Time'),
        );
    await eventually(async () => (await legend(4)).some((s) => s.label === 'user' && s.value !== '--'), { timeout: 20_000 }).toBe(true);
    const load = await legend(4);
    // CPU seconds per second, in cores: never a bare number.
    for (const s of load) if (s.value !== '--') expect(s.value, s.label).toMatch(/ cores?$/);
    await eventually(async () => (await legend(25)).length, { timeout: 20_000 }).toBeGreaterThan(0);
    const usage = await legend(25);
    const colourOf = (rows: typeof load, label: string) => rows.find((r) => r.label === label)?.color;
    for (const mode of ['user', 'privileged', 'interrupt', 'dpc']) {
      expect(colourOf(usage, mode), mode).toBeDefined();
      expect(colourOf(usage, mode), `${mode} on CPU Usage and CPU Load`).toBe(colourOf(load, mode));
    }
  });

  it('says when a range has no data, and offers Retry when a chart fails', async () => {
    const { page } = b;
    // Two days ago: the fleet has existed for minutes.
    const to = Math.floor((Date.now() - 48 * HOUR) / 60_000) * 60_000;
    await page.goto(`/servers/show/${ids['web-01']}?tab=cpu&range=custom&from=${to - HOUR}&to=${to}`);
    await shown(page.getByRole('region', { name: 'CPU Basic' }).getByText('No data for this range'));
    await shown(page.getByRole('region', { name: 'CPU Cores' }).getByText('No data for this range'));

    await page.route('**/api/servers/chart/**', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'The metric store is busy' }) }));
    await page.goto(`/servers/show/${ids['web-01']}?tab=cpu`);
    const panel = page.getByRole('region', { name: 'CPU Basic' });
    await shown(panel.getByRole('alert').getByText(/Could not load this chart\. The metric store is busy/));
    await page.unroute('**/api/servers/chart/**');
    await panel.getByRole('button', { name: 'Retry' }).click();
    await shown(panel.getByRole('group', { name: 'CPU Basic over time' }));
    await gone(panel.getByRole('alert'));
  });

  it('embeds Grafana panels instead of drawing them when a Grafana URL is set', async () => {
    const { page } = b;
    const grafana = 'http://grafana.opsdeck.invalid';
    await page.route(`${grafana}/**`, (route) => route.abort());
    await page.route('**/api/monitoring/config', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ result: { mode: 'builtin', scrapeIntervalSeconds: 2, grafanaUrl: grafana, grafanaJob: 'node', grafanaDatasource: 'prom-main', retentionHours: 24 } }) }),
    );
    const web = (await admin.call<{ result: { ipaddress: string; agentPort: number } }>('GET', `servers/${ids['web-01']}`)).body.result;
    await page.goto(`/servers/show/${ids['web-01']}?tab=cpu&range=3h&refresh=30s`);
    const frames = page.locator('iframe');
    await eventually(() => frames.count()).toBe(4);
    const basic = page.locator('iframe[title="CPU Basic"]');
    const src = new URL((await basic.getAttribute('src'))!);
    expect(`${src.origin}${src.pathname}`).toBe(`${grafana}/d-solo/rYdddlPWk/node-exporter-full`);
    // The job and data source come from the console's settings (GRAFANA_JOB, GRAFANA_DATASOURCE).
    expect(Object.fromEntries(src.searchParams)).toEqual({ orgId: '1', 'var-datasource': 'prom-main', 'var-job': 'node', 'var-node': `${web.ipaddress}:${web.agentPort}`, from: 'now-3h', to: 'now', theme: 'light', panelId: '77', refresh: '30s' });
    expect(await basic.getAttribute('width')).toBe('100%');
    expect(await basic.getAttribute('height')).toBe('400');
    expect(await page.locator('iframe[title="CPU Cores"]').getAttribute('height')).toBe('200');
    expect(await page.locator('[data-panel] canvas').count()).toBe(0);
    // The frames follow the colour mode.
    await commandLine(page, 'ui.toggle-dark-mode');
    await eventually(async () => new URL((await basic.getAttribute('src'))!).searchParams.get('theme')).toBe('dark');
    await commandLine(page, 'ui.toggle-dark-mode');
    await eventually(async () => new URL((await basic.getAttribute('src'))!).searchParams.get('theme')).toBe('light');
    await page.keyboard.press('Escape');
    await page.unroute('**/api/monitoring/config');
    await page.unroute(`${grafana}/**`);
  });

  it('is usable from the keyboard: tabs, ranges and the maintenance switch', async () => {
    const { page } = b;
    const id = ids['mq-01']!;
    await page.goto(`/servers/show/${id}`);
    await page.getByRole('tab', { name: 'Overview' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/tab=cpu/);
    await page.getByRole('radio', { name: 'Last 1 Hour' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    await page.waitForURL(/range=3h/);
    await page.getByRole('switch', { name: 'Maintenance' }).focus();
    await page.keyboard.press('Space');
    await eventually(async () => (await admin.call<{ result: { suppressAlarm: string } }>('GET', `servers/${id}`)).body.result.suppressAlarm).toBe('yes');
    await page.keyboard.press('Space');
    await eventually(async () => (await admin.call<{ result: { suppressAlarm: string } }>('GET', `servers/${id}`)).body.result.suppressAlarm).toBe('no');
  });

  it('shows the set-up view for an unconfigured agent and the suspended result', async () => {
    const { page } = b;
    const created = await admin.call<{ result: { _id: string } }>('POST', 'servers', { hostname: 'fresh-01', ipaddress: '10.20.30.40', operating_system: 'linux' });
    const fresh = created.body.result._id;
    await page.goto(`/servers/show/${fresh}`);
    await shown(page.getByRole('heading', { name: 'Agent not configured' }));
    expect(await page.getByRole('status', { name: /^State:/ }).count()).toBe(0);
    expect(await page.getByRole('tab').count()).toBe(0);
    await page.getByRole('link', { name: 'Configure Now' }).click();
    await page.waitForURL(/configure=1/);
    await shown(page.getByRole('heading', { name: 'Configure Agent' }));
    await shown(page.getByRole('button', { name: 'Generate Credentials' }));

    const other = await admin.call<{ result: { _id: string } }>('POST', 'servers', { hostname: 'banned-01', ipaddress: '10.20.30.41', operating_system: 'windows', isAgentConfigured: true });
    await admin.call('PATCH', `servers/${other.body.result._id}`, { status: 'suspended' });
    await page.goto(`/servers/show/${other.body.result._id}`);
    await shown(page.getByRole('heading', { name: 'Server Suspended' }));
    await shown(page.getByText('This server has been suspended. Please contact your administrator.'));
    expect(await page.getByRole('tab').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Server Utilization' }).count()).toBe(0);

    // Neither is offered by Switch Server (SPEC §7: active, agent-configured servers only).
    const selector = page.getByRole('combobox', { name: 'Switch Server' });
    for (const name of ['fresh', 'banned']) {
      await selector.click();
      await selector.fill(name);
      await shown(page.getByText('No active, configured servers match'));
      await page.keyboard.press('Escape');
    }
    await selector.fill('web');
    await shown(page.getByRole('option', { name: /web-01/ }));
    await page.keyboard.press('Escape');

    await page.goto('/servers/show/00000000-0000-4000-8000-000000000000');
    await shown(page.getByRole('heading', { name: 'Server not found' }));
  });
});
