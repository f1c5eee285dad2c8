import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine, gone, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { freePort, startServer, type RunningServer } from './server-process';

/**
 * The Pinned Widgets page (SPEC §2, §3, §5, §9) against a console with a small live demo fleet,
 * so pinned charts have data. Its own server, since the shared one runs without the fleet.
 */

/** expect.poll with room for round trips (its default gives up after 1 s). */
const eventually = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(fn, { timeout: 15_000, interval: 100, ...options });

interface Stored {
  server: string;
  type: string;
  title: string;
  panelId: number;
  refreshInterval: number;
  x: number;
  y: number;
  w: number;
  h: number;
  i: string;
}
const stored = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('widgets') ?? 'null') as unknown) as Promise<Stored[] | null>;
const isChart = (panel: number) => (r: Request) => r.url().includes('/api/servers/chart/') && new URL(r.url()).searchParams.get('panel') === String(panel);

/** The element's box once the grid's 200 ms move/resize transition has finished (two equal reads in a row). */
async function settledBox(locator: import('playwright-core').Locator) {
  let last = (await locator.boundingBox())!;
  for (let n = 0; n < 50; n++) {
    await new Promise((r) => setTimeout(r, 250));
    const now = (await locator.boundingBox())!;
    if (now.x === last.x && now.y === last.y && now.width === last.width && now.height === last.height) return now;
    last = now;
  }
  throw new Error('the widget kept moving');
}

/** Picks an option of a react-aria Select by its label. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: new RegExp(`^(Select |Choose )?.*${label}`) }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('pinned widgets', () => {
  let server: RunningServer;
  let b: Browser;
  let webId = '';
  let admin: Awaited<ReturnType<typeof apiSession>>;

  beforeAll(async () => {
    server = await startServer({ env: { DEMO_FLEET: '1', DEMO_FLEET_SIZE: '2', DEMO_FLEET_PORT: String(await freePort()), SCRAPE_INTERVAL: '2' } });
    admin = await apiSession(server.url);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const r = await admin.call<{ result: { data: { _id: string; hostname: string; cpuUsage: number | null }[] } }>('POST', 'servers/all', { pageNumber: 1, pageSize: 50 });
      const web = r.body.result.data.find((s) => s.hostname === 'web-01');
      if (web && web.cpuUsage !== null) {
        webId = web._id;
        break;
      }
      if (Date.now() > deadline) throw new Error(`the demo fleet did not report: ${JSON.stringify(r.body)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    b = await openBrowser(server.url);
    await signIn(b.page);
  }, 180_000);

  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  it('shows the empty state, reached from the menu', async () => {
    const { page } = b;
    await page.getByRole('link', { name: 'Pinned Widgets' }).click();
    await page.waitForURL((u) => u.pathname === '/pinned-widgets');
    await shown(page.getByRole('heading', { name: 'No Pinned Widgets Found' }));
    await shown(page.getByText('Please add one.'));
    expect(await page.getByRole('button', { name: 'Add Widget' }).count()).toBe(1);
  });

  it('adds a widget through the drawer only when all four choices are made, and draws its chart', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'Add Widget' }).click();
    await page.waitForURL((u) => u.pathname === '/pinned-widgets/create');
    const drawer = page.getByRole('dialog', { name: 'Add New Widget' });
    await shown(drawer);
    const width = (await drawer.boundingBox())!.width;
    expect(Math.round(width)).toBe(756);

    const save = drawer.getByRole('button', { name: 'Save' });
    await save.click();
    for (const m of ['Please select Server', 'Please select Widget Type', 'Please select Widget', 'Please select Refresh Interval']) await shown(drawer.getByText(m, { exact: true }));
    expect(await stored(page)).toBeNull();

    const serverBox = drawer.getByRole('combobox', { name: 'Server' });
    await serverBox.click();
    await serverBox.fill('web');
    await page.getByRole('option', { name: /web-01/ }).click();
    expect(await serverBox.inputValue()).toBe('web-01');
    await choose(page, 'Widget Type', 'CPU');
    await save.click();
    // Server and type chosen: their messages go, the other two stay, nothing is added.
    await gone(drawer.getByText('Please select Server', { exact: true }));
    expect(await drawer.getByText('Please select Widget Type', { exact: true }).count()).toBe(0);
    await shown(drawer.getByText('Please select Widget', { exact: true }));
    await shown(drawer.getByText('Please select Refresh Interval', { exact: true }));
    expect(await stored(page)).toBeNull();

    // The widget list is the CPU panels of a Linux host, titled as PANELS.md names them.
    await drawer.getByRole('button', { name: /Widget(?! Type)/ }).filter({ hasNotText: 'CPU' }).first().click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['CPU Cores', 'Sys Load (15m avg)', 'CPU Busy', 'CPU Basic']);
    await page.getByRole('option', { name: 'CPU Basic', exact: true }).click();
    await choose(page, 'Refresh Interval', '10s');

    const firstChart = page.waitForRequest(isChart(77));
    await save.click();
    await page.waitForURL((u) => u.pathname === '/pinned-widgets');
    await gone(drawer);
    const list = await stored(page);
    expect(list).toHaveLength(1);
    expect(list![0]).toMatchObject({ server: webId, type: 'cpu', title: 'CPU Basic', panelId: 77, refreshInterval: 10_000, x: 0, y: 0, w: 5, h: 5 });
    expect(Object.keys(list![0]!).sort()).toEqual(['h', 'i', 'panelId', 'refreshInterval', 'server', 'title', 'type', 'w', 'x', 'y']);

    // The chart draws (uPlot canvas) with the fleet's data, and asks again after its 10 s.
    const first = await firstChart;
    const widget = page.getByRole('region', { name: 'CPU Basic' });
    await shown(widget.getByRole('group', { name: 'CPU Basic over time' }));
    await shown(widget.locator('canvas'));
    await shown(widget.getByText('web-01 · CPU'));
    const firstTo = Number(new URL(first.url()).searchParams.get('to'));
    const again = await page.waitForRequest((r) => isChart(77)(r) && Number(new URL(r.url()).searchParams.get('to')) >= firstTo + 9_000, { timeout: 25_000 });
    expect(Number(new URL(again.url()).searchParams.get('to')) - firstTo).toBeLessThan(20_000);
  });

  it('resizes and drags a widget with the mouse, and keeps the layout after a reload', async () => {
    const { page } = b;
    const item = page.locator('[data-widget-id]').first();
    const before = (await item.boundingBox())!;
    // Resize by the bottom-right handle: wider by about two columns, taller by about four rows.
    const handle = item.locator('.react-resizable-handle');
    const h = (await handle.boundingBox())!;
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x + 100, h.y + 80, { steps: 8 });
    await page.mouse.move(h.x + 200, h.y + 160, { steps: 8 });
    await page.mouse.up();
    await eventually(async () => (await stored(page))![0]!.w).toBeGreaterThan(5);
    const resized = (await stored(page))![0]!;
    expect(resized.h).toBeGreaterThan(5);
    await eventually(async () => (await item.boundingBox())!.width).toBeGreaterThan(before.width + 100);

    // Drag by the title row, to the right.
    const title = item.locator('.widget-drag-handle');
    const t = (await title.boundingBox())!;
    await page.mouse.move(t.x + 20, t.y + t.height / 2);
    await page.mouse.down();
    await page.mouse.move(t.x + 120, t.y + t.height / 2, { steps: 8 });
    await page.mouse.move(t.x + 260, t.y + t.height / 2, { steps: 8 });
    await page.mouse.up();
    await eventually(async () => (await stored(page))![0]!.x).toBeGreaterThan(0);
    const moved = (await stored(page))![0]!;
    expect({ w: moved.w, h: moved.h }).toEqual({ w: resized.w, h: resized.h });
    await eventually(async () => Math.round((await item.boundingBox())!.x)).toBeGreaterThan(Math.round(before.x) + 50);
    const box = await settledBox(item);

    await page.reload();
    const again = page.locator('[data-widget-id]').first();
    await shown(again.getByRole('group', { name: 'CPU Basic over time' }));
    // Same place and size, to the pixel (sub-pixel column widths may round either way).
    await eventually(async () => {
      const r = (await again.boundingBox())!;
      return Math.max(Math.abs(r.x - box.x), Math.abs(r.y - box.y), Math.abs(r.width - box.width), Math.abs(r.height - box.height));
    }).toBeLessThan(1.5);
    expect((await stored(page))![0]).toEqual(moved);
  });

  it('edits a widget’s title and refresh interval, and opens one on its own', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'More actions for CPU Basic' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/pinned-widgets/edit/'));
    const drawer = page.getByRole('dialog', { name: 'Edit Widget' });
    await shown(drawer);
    await shown(drawer.getByText(/^web-01 \(127\./));
    await shown(drawer.getByText('CPU Basic', { exact: true }));
    await drawer.getByRole('textbox', { name: 'Title' }).fill('Web CPU');
    await drawer.getByRole('button', { name: /Refresh Interval/ }).click();
    await page.getByRole('option', { name: '5m', exact: true }).click();
    await drawer.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/pinned-widgets');
    await shown(page.getByRole('region', { name: 'Web CPU' }));
    expect((await stored(page))![0]).toMatchObject({ title: 'Web CPU', refreshInterval: 300_000, panelId: 77 });

    await page.getByRole('button', { name: 'More actions for Web CPU' }).click();
    await page.getByRole('menuitem', { name: 'Open' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/pinned-widgets/show/'));
    const show = page.getByRole('dialog', { name: 'Web CPU' });
    // The chart keeps the panel's own name for assistive technology; the widget's title names the drawer.
    await shown(show.getByRole('group', { name: 'CPU Basic over time' }));
    await page.keyboard.press('Escape');
    await page.waitForURL((u) => u.pathname === '/pinned-widgets');

    // A link to a widget this browser does not have goes back to the wall.
    await page.goto('/pinned-widgets/edit/not-a-widget');
    await page.waitForURL((u) => u.pathname === '/pinned-widgets');
    await shown(page.getByText('That widget is not pinned in this browser.'));
  });

  it('removes a widget with its button', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'Remove widget Web CPU' }).click();
    await shown(page.getByRole('heading', { name: 'No Pinned Widgets Found' }));
    expect(await stored(page)).toEqual([]);
  });

  it('pins and removes from the command line, the open page following', async () => {
    const { page } = b;
    await commandLine(page, 'widget.pin web-01 memory "RAM Used" --refresh 1m');
    const widget = page.getByRole('region', { name: 'RAM Used' });
    await eventually(async () => (await stored(page))?.length).toBe(1);
    await shown(widget.getByRole('meter', { name: 'RAM Used' }));
    expect((await stored(page))![0]).toMatchObject({ type: 'memory', panelId: 16, refreshInterval: 60_000, w: 5, h: 5 });

    await commandLine(page, 'widget.pin web-01 disk 77');
    await shown(page.getByText(/No Disk widget "77" for Linux/));
    expect(await stored(page)).toHaveLength(1);

    await commandLine(page, 'widget.remove "RAM Used"');
    await shown(page.getByRole('heading', { name: 'No Pinned Widgets Found' }));
    expect(await stored(page)).toEqual([]);

    // Pins live in this browser: History is the server's record of what changed there, and holds none of them.
    const r = await admin.call<{ result: { data: { command: string; source: string; outcome: string }[] } }>('POST', 'command-history/all', {
      pageNumber: 1,
      pageSize: 50,
      filter: { command: { in: ['widget.pin', 'widget.remove'] } },
    });
    expect(r.body.result.data).toEqual([]);
  });

  it('pins a chart from the server detail with its Pin button', async () => {
    const { page } = b;
    await page.goto(`/servers/show/${webId}`);
    const panel = page.getByRole('region', { name: 'Memory Basic' });
    await shown(panel.getByRole('group', { name: 'Memory Basic over time' }));
    await panel.getByRole('button', { name: 'Pin Memory Basic to widgets' }).click();
    await shown(page.getByText('Pinned Memory Basic of web-01 to Pinned Widgets'));
    expect(await stored(page)).toEqual([expect.objectContaining({ server: webId, type: 'memory', panelId: 78, title: 'Memory Basic', refreshInterval: 30_000, x: 0, y: 0, w: 5, h: 5 })]);
    await page.getByRole('link', { name: 'Pinned Widgets' }).click();
    await shown(page.getByRole('region', { name: 'Memory Basic' }).getByRole('group', { name: 'Memory Basic over time' }));
  });

  it('resets the layout with its button, after asking', async () => {
    const { page } = b;
    await commandLine(page, 'widget.pin web-01 cpu "CPU Busy"');
    await eventually(async () => (await stored(page))?.length).toBe(2);
    const odd = (await stored(page))!.map((w, n) => ({ ...w, x: 3 + n, y: 20 - n * 10, w: 3 + n, h: 7 }));
    await page.evaluate((v) => localStorage.setItem('widgets', JSON.stringify(v)), odd);
    await page.reload();
    await shown(page.getByRole('region', { name: 'CPU Busy' }));
    await page.getByRole('button', { name: 'Reset Layout' }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await shown(dialog.getByText(/Your arrangement is lost/));
    await dialog.getByRole('button', { name: 'Reset' }).click();
    // Reading order: CPU Busy was higher, so it comes first.
    await eventually(async () => (await stored(page))!.map(({ title, x, y, w, h }) => [title, x, y, w, h])).toEqual([
      ['CPU Busy', 0, 0, 5, 5],
      ['Memory Basic', 5, 0, 5, 5],
    ]);
    await commandLine(page, 'widget.remove "CPU Busy"');
    await commandLine(page, 'widget.remove "Memory Basic"');
    await shown(page.getByRole('heading', { name: 'No Pinned Widgets Found' }));
  });

  it('moves and resizes a widget from the keyboard and the command line', async () => {
    const { page } = b;
    await page.evaluate((id) => {
      localStorage.setItem('widgets', JSON.stringify([{ server: id, type: 'cpu', title: 'Keyed CPU', panelId: 77, refreshInterval: 30_000, x: 0, y: 0, w: 5, h: 5, i: 'kbd' }]));
    }, webId);
    await page.goto('/pinned-widgets');
    const item = page.getByRole('group', { name: 'Widget Keyed CPU' });
    await shown(item.getByRole('group', { name: 'CPU Basic over time' }));
    const before = await settledBox(item);

    // Tab to the widget as a keyboard user would; it says what its keys do.
    const focusedWidget = () => page.evaluate(() => document.activeElement?.getAttribute('data-widget-id') ?? null);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    for (let n = 0; n < 60 && (await focusedWidget()) !== 'kbd'; n++) await page.keyboard.press('Tab');
    expect(await focusedWidget()).toBe('kbd');
    const hint = await item.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
    expect(hint).toMatch(/Alt\+Arrow keys move/);

    await page.keyboard.press('Alt+ArrowRight');
    await eventually(async () => (await stored(page))![0]!.x).toBe(1);
    // The page re-reads the store: the widget moves on screen, one column (about 90 px) right.
    await eventually(async () => (await item.boundingBox())!.x).toBeGreaterThan(before.x + 50);
    expect(page.url()).toMatch(/\/pinned-widgets$/);

    await page.keyboard.press('Alt+Shift+ArrowDown');
    await eventually(async () => (await stored(page))![0]!.h).toBe(6);
    expect((await stored(page))![0]).toMatchObject({ x: 1, y: 0, w: 5, h: 6 });
    expect(await focusedWidget()).toBe('kbd');

    // Past the top: refused with the reason, nothing stored.
    await page.keyboard.press('Alt+ArrowUp');
    await shown(page.getByText('y must be 0 or more: row 0 is the top of the grid.'));
    expect((await stored(page))![0]).toMatchObject({ x: 1, y: 0, w: 5, h: 6 });

    await commandLine(page, 'widget.move "Keyed CPU" --x 0');
    await eventually(async () => (await stored(page))![0]!.x).toBe(0);
    expect((await stored(page))![0]).toMatchObject({ y: 0, w: 5, h: 6 });

    const r = await admin.call<{ result: { data: { command: string; source: string; outcome: string }[] } }>('POST', 'command-history/all', {
      pageNumber: 1,
      pageSize: 50,
      filter: { command: { in: ['widget.move', 'widget.resize'] } },
    });
    expect(r.body.result.data).toEqual([]);
    await page.keyboard.press('Escape');
    await page.evaluate(() => localStorage.removeItem('widgets'));
  });

  it('embeds the Grafana panel when a Grafana URL is set', async () => {
    const { page } = b;
    const grafana = 'http://grafana.opsdeck.invalid';
    await page.route(`${grafana}/**`, (route) => route.abort());
    await page.route('**/api/monitoring/config', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ result: { mode: 'builtin', scrapeIntervalSeconds: 2, grafanaUrl: grafana, grafanaJob: 'opsdeck', grafanaDatasource: 'default', retentionHours: 24 } }) }),
    );
    const web = (await admin.call<{ result: { ipaddress: string; agentPort: number } }>('GET', `servers/${webId}`)).body.result;
    await page.evaluate((id) => {
      localStorage.setItem('widgets', JSON.stringify([{ server: id, type: 'disk', title: 'Root FS Used', panelId: 154, refreshInterval: 60_000, x: 0, y: 0, w: 5, h: 5, i: 'g' }]));
    }, webId);
    await page.reload();
    const frame = page.locator('iframe[title="Root FS Used"]');
    await shown(frame);
    const src = new URL((await frame.getAttribute('src'))!);
    expect(`${src.origin}${src.pathname}`).toBe(`${grafana}/d-solo/rYdddlPWk/node-exporter-full`);
    expect(Object.fromEntries(src.searchParams)).toEqual({ orgId: '1', 'var-datasource': 'default', 'var-job': 'opsdeck', 'var-node': `${web.ipaddress}:${web.agentPort}`, from: 'now-1h', to: 'now', theme: 'light', panelId: '154', refresh: '1m' });
    expect(await page.locator('[data-widget-id] canvas, [data-widget-id] [role="meter"]').count()).toBe(0);
    await page.unroute('**/api/monitoring/config');
    await page.unroute(`${grafana}/**`);
    await page.evaluate(() => localStorage.removeItem('widgets'));
  });

  it('survives junk in the stored value, showing the entries that are valid', async () => {
    const { page } = b;
    await page.evaluate((id) => {
      const good = { server: id, type: 'network', title: 'Traffic', panelId: 84, refreshInterval: 30_000, x: 0, y: 0, w: 5, h: 5, i: 'kept' };
      localStorage.setItem('widgets', JSON.stringify([{ broken: true }, good, { ...good, i: 'bad', refreshInterval: 'often' }]));
    }, webId);
    await page.reload();
    await shown(page.getByRole('region', { name: 'Traffic' }));
    expect(await page.locator('[data-widget-id]').count()).toBe(1);
    await page.evaluate(() => localStorage.setItem('widgets', '{not json'));
    await page.reload();
    await shown(page.getByRole('heading', { name: 'No Pinned Widgets Found' }));
  });
});
