import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { commandLine, gone, openBrowser, settled, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { startServer, type RunningServer } from './server-process';

/**
 * Issue 13 screen defects: every list table fits at 1280 px and scrolls inside its own container
 * below that, never clipping an action; the dashboard's Instance Down card reads like the
 * Notifications screen; the phone header shows one menu button. Against its own server, with
 * alerts written into the data folder before it starts (long hostnames, host text in code runs,
 * our figures in bold, as the evaluator writes them).
 */

type Session = Awaited<ReturnType<typeof apiSession>>;
const HOSTS = ['win-iis-application-01.corp.example.com', 'db-primary-01.corp.example.com'];

async function seed(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    for (const [i, hostname] of HOSTS.entries()) {
      const [server] = await database.query<{ id: string }>(
        `insert into servers (hostname, ipaddress, operating_system, is_agent_configured) values ($1, $2, $3, false) returning id`,
        [hostname, `10.251.0.${i + 1}`, i === 0 ? 'windows' : 'linux'],
      );
      await database.query(
        `insert into alerts (server_id, hostname, instance, alertname, description, type, severity, status, subject, created_at)
         values ($1, $2, $3, $4, $5, 'resouce_alert', $6, 'firing', $7, now() - interval '5 minutes')`,
        i === 0
          ? [server!.id, hostname, '10.251.0.1', 'windows_service_down', 'Service `w3svc` is not running on win\\-iis\\-application\\-01 for **12 minutes**', 'critical', 'fit-0']
          : [server!.id, hostname, '10.251.0.2', 'high_memory_usage', 'Memory usage is **95.3%** on db\\-primary\\-01 \\(threshold **90%**\\)', 'warning', 'fit-1'],
      );
    }
  } finally {
    await database.close();
  }
}

/**
 * Why an element is not wholly seen (outside the viewport, clipped by an ancestor, its own text
 * cut), or null. Source text, run in the page (a compiled function may call helpers the page lacks).
 */
const CLIPPING = `(el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return 'not rendered: ' + el.outerHTML.slice(0, 80);
  const name = el.getAttribute('aria-label') || el.textContent;
  if (r.left < -0.5 || r.right > window.innerWidth + 0.5) return name + ': ' + r.left.toFixed(0) + '–' + r.right.toFixed(0) + ' outside the viewport (' + window.innerWidth + ')';
  if (el.scrollWidth > el.clientWidth + 1) return name + ': its text is cut (' + el.scrollWidth + ' > ' + el.clientWidth + ')';
  const range = document.createRange();
  range.selectNodeContents(el);
  const lines = new Set([...range.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
  // A button (or a link drawn as one) keeps its label on one line; a name's link may wrap.
  const isButton = el.tagName === 'BUTTON' || /(^|\\s)rounded/.test(el.className);
  if (isButton && lines.size > 1) return name + ': its label wraps onto ' + lines.size + ' lines';
  for (let a = el.parentElement; a; a = a.parentElement) {
    if (getComputedStyle(a).overflowX === 'visible') continue;
    const ar = a.getBoundingClientRect();
    if (r.left < ar.left - 0.5 || r.right > ar.right + 0.5) return name + ': ' + r.left.toFixed(0) + '–' + r.right.toFixed(0) + ' clipped by <' + a.tagName.toLowerCase() + ' class="' + a.className + '"> at ' + ar.left.toFixed(0) + '–' + ar.right.toFixed(0);
  }
  return null;
}`;
const clipping = (el: Locator) => el.evaluate((e, src) => (0, eval)(src)(e) as string | null, CLIPPING);

/** The controls in a table's rows: each action a person must be able to reach. */
const actionsOf = (table: Locator) => table.locator('tbody').locator('button, a');

async function clippedActions(table: Locator): Promise<string[]> {
  const found = await actionsOf(table).evaluateAll((els, src) => els.map((e) => (0, eval)(src)(e) as string | null), CLIPPING);
  return found.filter((x): x is string => x !== null);
}

interface Screen {
  name: string;
  open: (page: Page) => Promise<Locator>;
}

const tableOn = (url: string, name?: string) => async (page: Page) => {
  await page.goto(url);
  const table = name ? page.getByRole('table', { name, exact: true }) : page.locator('main table').first();
  await shown(table.locator('tbody tr'));
  // Rows have loaded (not the skeleton): their actions are there. Then the page settles (the
  // live stream's first events may refetch the list and re-render it), and the actions are
  // measured as they stay.
  await shown(actionsOf(table));
  await settled(page);
  await shown(actionsOf(table));
  return table;
};

/** The on-call schedule made before the screens are visited (its page's path needs its id). */
let schedulePath = '';

const screens: Screen[] = [
  { name: 'servers', open: tableOn('/servers?view=table') },
  { name: 'alerts table', open: tableOn('/notifications?view=table') },
  { name: 'users', open: tableOn('/users') },
  { name: 'notification groups', open: tableOn('/notification-groups') },
  { name: 'checks', open: tableOn('/checks') },
  { name: 'silences', open: tableOn('/notifications/silences') },
  { name: 'maintenance', open: tableOn('/notifications/maintenance') },
  { name: 'status pages', open: tableOn('/status-pages') },
  { name: 'instance down', open: tableOn('/', 'Instance Down') },
  { name: 'on-call layers', open: (page) => tableOn(schedulePath, 'Layers')(page) },
  {
    name: 'history',
    open: async (page) => {
      await page.goto('/');
      await commandLine(page, 'history.show');
      const panel = page.getByRole('dialog', { name: 'Command history' });
      await shown(panel.locator('li'));
      return panel;
    },
  },
];

describe('screens fit', () => {
  let server: RunningServer;
  let admin: Session;
  let b: Browser;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-e2e-fit-'));
    await seed(dataDir);
    server = await startServer({ dataDir, env: { ALERT_EVALUATION: '0', ALERT_EVAL_INTERVAL: '3600' } });
    admin = await apiSession(server.url);
    const created = async (path: string, body: unknown) => {
      const r = await admin.call('POST', path, body);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(201);
      return r.body.result as { _id: string };
    };
    const [serverId] = (await admin.call<{ result: { data: { _id: string }[] } }>('POST', 'servers/all', { pageNumber: 1, pageSize: 10 })).body.result.data.map((s) => s._id);
    await created('notification-groups', { name: 'Windows platform on-call', description: 'IIS and SQL hosts', emailEnabled: true, emailList: ['platform-oncall@example.com'], slackEnabled: true, slackChannel: '#platform-oncall' });
    await admin.createUser({ username: 'margaret.hamilton', email: 'margaret.hamilton@example.com', role: 'user' });
    await created('checks', { name: 'Corporate intranet portal (HTTPS)', kind: 'tcp', host: 'intranet-portal.corp.example.com', port: 443, intervalSeconds: 3600, paused: true });
    await created('silences', { matchers: [{ name: 'hostname', op: '=', value: HOSTS[0] }, { name: 'alertname', op: '=', value: 'windows_service_down' }], durationSeconds: 7200, comment: 'IIS patching in progress' });
    const start = new Date(Date.now() + 86_400_000);
    await created('maintenance-windows', { name: 'Sunday patching of the IIS farm', serverIds: [serverId], startsAt: start.toISOString(), endsAt: new Date(start.getTime() + 7_200_000).toISOString(), timezone: 'UTC' });
    await created('status-pages', { slug: 'corporate-services', title: 'Corporate services status' });
    const margaret = (await admin.findUserByEmail('margaret.hamilton@example.com'))!._id;
    const today = new Date().toISOString().slice(0, 10);
    const rota = await created('oncall-schedules', {
      name: 'Windows platform primary rotation',
      timeZone: 'America/New_York',
      layers: [{ name: 'weekday business hours', participants: [margaret], shift: { length: 1, unit: 'weeks' }, start: today, handoff: '09:00', restrictions: [{ type: 'daily', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00' }] }],
    });
    schedulePath = `/oncall/${rota._id}`;
    b = await openBrowser(server.url, { viewport: { width: 1280, height: 800 } });
    await signIn(b.page);
    // A run in the history, for its panel's rows.
    await commandLine(b.page, 'dashboard.refresh');
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  it('fits every table at 1280 px: each row action wholly inside the viewport and unclipped', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 1280, height: 800 });
    const problems: string[] = [];
    for (const screen of screens) {
      const table = await screen.open(page);
      for (const p of await clippedActions(table)) problems.push(`${screen.name}: ${p}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), screen.name).toBe(1280);
    }
    expect(problems).toEqual([]);
  });

  it('below 1280 px a table scrolls sideways inside its own container, the page does not, and every action can be scrolled to', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 1024, height: 768 });
    try {
      const problems: string[] = [];
      for (const screen of screens) {
        const table = await screen.open(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${screen.name}: the page scrolls sideways`).toBe(1024);
        const actions = actionsOf(table);
        for (let i = 0; i < (await actions.count()); i++) {
          const action = actions.nth(i);
          await action.scrollIntoViewIfNeeded();
          const p = await clipping(action);
          if (p) problems.push(`${screen.name}: ${p}`);
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('Instance Down reads like the Notifications screen: bold figures and code, spaced alert names, capitalised severity; whole at 1440×900', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 1440, height: 900 });
    try {
      await page.goto('/');
      const table = page.getByRole('table', { name: 'Instance Down', exact: true });
      const row = (host: string) => table.getByRole('row').filter({ hasText: host });
      await shown(row(HOSTS[0]!));
      const text = (await table.locator('tbody').innerText()).replace(/\s+/g, ' ');
      // No markdown shown as typed, no snake_case names, no lowercase severity.
      expect(text).not.toMatch(/\*\*|`|\\/);
      expect(text).not.toMatch(/windows_service_down|high_memory_usage/);
      expect(text).toContain('windows service down');
      expect(text).toContain('high memory usage');
      expect(text).toMatch(/\bCritical\b/);
      expect(text).toMatch(/\bWarning\b/);
      expect(text).not.toMatch(/\bcritical\b|\bwarning\b/);
      await shown(row(HOSTS[0]!).locator('code', { hasText: 'w3svc' }));
      await shown(row(HOSTS[1]!).locator('strong', { hasText: '95.3%' }));
      // The same words the Notifications table shows for the alert.
      const name = 'windows service down on win-iis-application-01.corp.example.com';
      await shown(table.getByRole('link', { name: `Show alert ${name}` }));
      // Triggered At and the actions are wholly on screen.
      const header = table.getByRole('columnheader', { name: 'Triggered At' });
      expect(await clipping(header)).toBeNull();
      for (const cell of await table.locator('tbody time').all()) expect(await clipping(cell)).toBeNull();
      expect(await clippedActions(table)).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  /** The seeded alerts, by hostname. */
  const alertOf = async (hostname: string) => {
    const r = await admin.call<{ result: { data: { _id: string }[] } }>('POST', 'alerts/all', { pageNumber: 1, pageSize: 5, filter: { hostname: { eq: hostname } } });
    return r.body.result.data[0]!._id;
  };
  const alertNow = async (id: string) => (await admin.call('GET', `alerts/${id}`)).body.result;
  type Box = { x: number; y: number; width: number; height: number };
  const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  it("gives the alert drawer Acknowledge, Resolve and Snooze in its header (SPEC's tabs and footer kept), and no toast covers the drawer's buttons", async () => {
    const { page } = b;
    await page.setViewportSize({ width: 1280, height: 800 });
    const id = await alertOf(HOSTS[1]!);
    await page.goto(`/notifications/show/${id}`);
    const drawer = page.getByRole('dialog', { name: /^Alert high memory usage on / });
    const actions = drawer.getByRole('group', { name: 'Actions' });
    await shown(actions.getByRole('button', { name: 'Acknowledge' }));
    expect(await actions.getByRole('button').allTextContents()).toEqual(['Acknowledge', 'Resolve', 'Snooze']);
    expect(await drawer.getByRole('tab').allTextContents()).toEqual(['Overview', 'Timeline', 'Action']);
    await shown(drawer.getByRole('button', { name: 'Delete Alert' }));
    await shown(drawer.getByText(/^Triggered at /));

    await actions.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(async () => (await alertNow(id)).acknowledgement?.by.username, { timeout: 10_000 }).toBe('admin');
    await expect.poll(() => actions.getByRole('button', { name: 'Acknowledge' }).isDisabled()).toBe(true);

    // Resolve needs a note: a small form beside the button asks for it (the drawer is modal).
    await actions.getByRole('button', { name: 'Resolve' }).click();
    const form = page.getByRole('dialog', { name: 'Resolve alert' });
    await form.getByRole('textbox', { name: 'Notes' }).fill('Cache flushed, memory back to normal');
    await form.getByRole('button', { name: 'Resolve' }).click();
    await gone(form);
    await expect.poll(async () => (await alertNow(id)).status, { timeout: 10_000 }).toBe('resolved');
    expect((await alertNow(id)).timeline.at(-1)).toMatchObject({ type: 'resolved', note: 'Cache flushed, memory back to normal' });
    expect(await admin.historyMissing(['alert.ack', 'alert.resolve'], ['alert.ack:ui:ok', 'alert.resolve:ui:ok'])).toEqual([]);

    // The run's notice, while the drawer is open: clear of every button of the drawer.
    const notice = page.getByTestId('notice');
    await shown(notice);
    const n = (await notice.boundingBox())!;
    const covered: string[] = [];
    for (const button of await drawer.getByRole('button').all()) {
      const bb = await button.boundingBox();
      if (bb && overlap(n, bb)) covered.push((await button.getAttribute('aria-label')) ?? (await button.innerText()));
    }
    expect(covered).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('at 390 px: the report range buttons sit in one row, the Checks and Silences tables read row by row unclipped, the drawer keeps Delete Alert whole, and a toast stays off its buttons', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const problems: string[] = [];
      await page.goto('/incident-report');
      const range = page.getByRole('radiogroup', { name: 'Window' });
      await shown(range);
      const radios = await range.getByRole('radio').all();
      expect(radios.length).toBeGreaterThan(1);
      const tops = new Set<number>();
      for (const radio of radios) {
        tops.add(Math.round((await radio.boundingBox())!.y));
        const p = await clipping(radio);
        if (p) problems.push(`report range: ${p}`);
      }
      expect(tops.size, 'the range buttons wrap onto more than one row').toBe(1);

      for (const [path, name] of [
        ['/checks', 'Checks'],
        ['/notifications/silences', 'Silences'],
      ] as const) {
        const table = await tableOn(path, name)(page);
        const sideways = await table.evaluate((t) => {
          const box = t.parentElement!;
          return box.scrollWidth - box.clientWidth;
        });
        if (sideways > 1) problems.push(`${name}: scrolls ${sideways} px sideways`);
        for (const p of await clippedActions(table)) problems.push(`${name}: ${p}`);
      }
      // A matcher breaks only where a line cannot hold it: never a letter or two a line.
      const matcher = page.getByRole('table', { name: 'Silences' }).locator('code').first();
      const lines = await matcher.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      });
      expect(lines, 'the matcher hostname=win-iis-application-01.corp.example.com wraps onto').toBeLessThanOrEqual(2);

      await page.goto(`/notifications/show/${await alertOf(HOSTS[0]!)}`);
      const drawer = page.getByRole('dialog', { name: /^Alert windows service down on / });
      const del = drawer.getByRole('button', { name: 'Delete Alert' });
      await shown(del);
      for (const button of [del, ...(await drawer.getByRole('group', { name: 'Actions' }).getByRole('button').all())]) {
        const p = await clipping(button);
        if (p) problems.push(`drawer: ${p}`);
      }
      // A notice (the snooze's, with Undo) rises above the footer.
      await drawer.getByRole('group', { name: 'Actions' }).getByRole('button', { name: 'Snooze' }).click();
      const form = page.getByRole('dialog', { name: 'Snooze alert' });
      await form.getByRole('textbox', { name: 'Notes' }).fill('Patching tonight');
      await form.getByRole('textbox', { name: 'Snooze for (optional)' }).fill('2h');
      await form.getByRole('button', { name: 'Snooze' }).click();
      await gone(form);
      const notice = page.getByTestId('notice');
      await shown(notice);
      const n = (await notice.boundingBox())!;
      for (const button of await drawer.getByRole('button').all()) {
        const bb = await button.boundingBox();
        if (bb && overlap(n, bb)) problems.push(`the notice covers ${(await button.getAttribute('aria-label')) ?? (await button.innerText())}`);
      }
      expect(problems).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  /**
   * The screen's visible buttons that are cut or outside the viewport, or taller than one line of
   * label: an icon beside a word has its own line box, so the line count of `clipping` would call
   * every Refresh button wrapped.
   */
  const buttonsCut = async (page: Page) => {
    const found: string[] = [];
    for (const button of await page.getByRole('main').getByRole('button').all()) {
      if (!(await button.isVisible())) continue;
      const p = await clipping(button);
      if (p && !p.endsWith('lines')) found.push(p);
      const box = (await button.boundingBox())!;
      if (box.height > 40) found.push(`${await button.innerText()}: ${box.height} px tall, its label wraps`);
    }
    return found;
  };

  it('at 390 px: the On Call list and a schedule fit, its timeline of hours and its buttons wholly on screen', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const problems: string[] = [];
      await page.goto('/oncall');
      await shown(page.getByRole('table', { name: 'On-call schedules' }).getByText('Windows platform primary rotation'));
      await settled(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the On Call list scrolls sideways').toBe(390);
      problems.push(...(await buttonsCut(page)).map((p) => `On Call: ${p}`));
      await page.goto(schedulePath);
      const grid = page.getByRole('grid', { name: 'On-call timeline, next two weeks' });
      await shown(grid);
      await settled(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the schedule scrolls sideways').toBe(390);
      // Every hour of the two weeks is on screen, none narrower than a fingertip's sliver.
      const cells = await grid.getByRole('gridcell').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right, width: r.width })));
      expect(cells.length).toBeGreaterThanOrEqual(14 * 24);
      const outside = cells.filter((c) => c.left < 0 || c.right > 390);
      expect(outside.length, 'hours outside the viewport').toBe(0);
      expect(Math.min(...cells.map((c) => c.width))).toBeGreaterThanOrEqual(8);
      for (const header of await grid.getByRole('rowheader').all()) {
        const p = await clipping(header.locator('span:visible'));
        if (p) problems.push(`timeline day: ${p}`);
      }
      problems.push(...(await buttonsCut(page)).map((p) => `schedule: ${p}`));
      expect(problems).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('shows one menu button in the header: ☰ on a phone (it opens the menu), « on a desktop', async () => {
    const phone = await openBrowser(server.url, { viewport: { width: 360, height: 740 } });
    try {
      const { page } = phone;
      await signIn(page);
      const menu = page.getByRole('button', { name: 'Open menu' });
      await shown(menu);
      const collapse = page.getByRole('button', { name: /(Collapse|Expand) sidebar/ });
      expect(await collapse.isVisible()).toBe(false);
      // Nothing else in the header reads « or » on a phone.
      expect(await page.getByRole('banner').innerText()).not.toMatch(/[«»]/);
      await menu.click();
      await shown(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Servers' }));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(360);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.keyboard.press('Escape');
      await page.goto('/');
      await shown(page.getByRole('button', { name: 'Collapse sidebar' }));
      expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
    } finally {
      await phone.close();
    }
  });
});
