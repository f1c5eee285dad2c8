import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commandLine, gone, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { startServer, type RunningServer } from './server-process';

/**
 * The server detail's Alerts Configuration tab (SPEC §2, §4 held edits, §5 choices) and the
 * rules.* commands. Its own console on a fresh PostgreSQL database with the evaluator's first
 * tick an hour away, so a server can be left without an alert config (the evaluator would give
 * it the defaults) by deleting that config in SQL. Without PostgreSQL it uses the shared console
 * and skips the 'No Alert Config Found' case.
 */

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Rule {
  _id: string;
  name: string;
  enabled: boolean;
  timeLimit: number;
  threshold: number | null;
  severity: string;
  notificationGroup: string | null;
}
type Session = Awaited<ReturnType<typeof apiSession>>;

async function postgres(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `opsdeck_rules_e2e_${randomBytes(5).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const rulesOf = async (admin: Session, serverId: string): Promise<Record<string, Rule> | null> => {
  const r = await admin.call<{ result: { data: { rules: Rule[] }[] } }>('POST', 'alert-config/get-alert-config/all', { pageSize: 100, filter: { serverId: { eq: serverId } } });
  const config = r.body.result.data[0];
  return config ? Object.fromEntries(config.rules.map((x) => [x.name, x])) : null;
};

/** Waits with room for a loaded machine (tests/e2e/browser.ts waits 15 s). */
const show = (l: Locator) => shown(l, 30_000);
const hide = (l: Locator) => gone(l, 30_000);

/** expect.poll with room for round trips under load. */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 150 });

const row = (page: Page, label: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${label}`) }) });

/** Picks an option of one of the table's selects (react-aria Select: a button and a listbox). */
async function choose(page: Page, select: string, option: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(select) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await hide(page.getByRole('listbox'));
}

async function openTab(page: Page, serverId: string): Promise<void> {
  await page.goto(`/servers/show/${serverId}`);
  await page.getByRole('tab', { name: 'Alerts Configuration' }).click();
  await page.waitForURL((u) => u.searchParams.get('tab') === 'alerts-config');
}

/** react-aria's switch input is visually hidden: a person clicks its label. */
const toggle = (page: Page, name: string) => page.locator('label', { has: page.getByRole('switch', { name }) }).click();
const updateButton = (page: Page) => page.getByRole('button', { name: 'Update', exact: true });
const isChanged = async (r: Locator) => (await r.getAttribute('data-changed')) === 'true';

describe('alerts configuration', () => {
  let db: Awaited<ReturnType<typeof postgres>>;
  let server: RunningServer | undefined;
  let baseURL: string;
  let admin: Session;
  let b: Browser;
  const ids: Record<string, string> = {};
  const hostnames: Record<string, string> = {};
  const groups: Record<string, string> = {};

  beforeAll(async () => {
    db = await postgres();
    if (db) {
      server = await startServer({ env: { DATABASE_URL: db.url, ALERT_EVAL_INTERVAL: '3600', ALERT_EVALUATION: '0', SCRAPE_INTERVAL: '60' } });
      baseURL = server.url;
    } else baseURL = inject('baseURL');
    admin = await apiSession(baseURL);
    const tag = randomBytes(3).toString('hex');
    for (const [i, hostname] of [`web-${tag}`, `db-${tag}`, `bare-${tag}`].entries()) {
      // Registered with a running agent: the server gets its default rules at once. Nothing
      // listens on these addresses; the tab does not need figures.
      const r = await admin.call<{ result: { _id: string } }>('POST', 'servers', { hostname, ipaddress: `127.0.77.${i + 1}`, operating_system: 'linux', agentPort: 9, isAgentConfigured: true });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids[hostname.split('-')[0]!] = r.body.result._id;
      hostnames[hostname.split('-')[0]!] = hostname;
    }
    for (const name of [`Ops On Call ${tag}`, `DB Team ${tag}`]) {
      const r = await admin.call<{ result: { _id: string } }>('POST', 'notification-groups', { name, emailList: ['ops@example.com'] });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      groups[name.split(' ')[0]!] = r.body.result._id;
      groups[`${name.split(' ')[0]!}Name`] = name;
    }
    if (db) {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      await c.query('delete from alert_configs where server_id = $1', [ids.bare]);
      await c.end();
    }
    b = await openBrowser(baseURL);
    // Two cores shared by many: a table of react-aria controls can take a while to render.
    b.context.setDefaultTimeout(30_000);
    await signIn(b.page);
  }, 240_000);

  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  it('shows the rules with names in words, SPEC’s columns and Update disabled until something changes', async () => {
    const { page } = b;
    await openTab(page, ids.web!);
    await show(page.getByRole('heading', { name: 'Alert Rules' }));
    await show(row(page, 'high cpu usage'));
    const headers = await page.getByRole('columnheader').allTextContents();
    // SPEC's columns, then issue 14's Routing (tests/e2e/routing-settings.e2e.test.ts).
    expect(headers).toEqual(['Name', 'Description', 'Type', 'Threshold', 'Grace Period', 'Severity', 'Notification Group', 'Enabled', 'Routing']);
    const names = await page.getByRole('rowheader').allTextContents();
    expect(names).toEqual(['high cpu usage', 'high memory usage', 'high disk usage', 'critical disk usage', 'instance down', 'service down', 'disk full forecast', 'memory exhausted forecast']);
    expect(await row(page, 'high cpu usage').getByRole('cell').nth(1).textContent()).toBe('Resource Alert');
    expect(await row(page, 'service down').getByRole('cell').nth(1).textContent()).toBe('Service Down Alert');
    expect(await row(page, 'instance down').getByRole('cell').nth(2).textContent()).toBe('—');
    expect(await page.getByRole('button', { name: /Threshold of high cpu usage/ }).textContent()).toContain('90 %');
    expect(await page.getByRole('button', { name: /Grace period of high cpu usage/ }).textContent()).toContain('5 minutes');
    await show(page.getByText('Showing 1-8 of 8 items'));
    expect(await page.getByRole('button', { name: /Page size/ }).textContent()).toContain('10 / page');
    expect(await updateButton(page).isDisabled()).toBe(true);
  }, 180_000);

  it('holds mouse edits, marks changed rows, and Update sends them all', async () => {
    const { page } = b;
    await choose(page, 'Threshold of high cpu usage', '80 %');
    await eventually(() => isChanged(row(page, 'high cpu usage'))).toBe(true);
    expect(await updateButton(page).isEnabled()).toBe(true);
    await choose(page, 'Grace period of critical disk usage', '2 minutes');
    await choose(page, 'Severity of high memory usage', 'critical');
    await toggle(page, 'Enabled: service down');
    const group = page.getByRole('combobox', { name: 'Notification group of high cpu usage' });
    await group.click();
    await group.fill('Ops');
    await page.getByRole('option', { name: new RegExp(`^${groups.OpsName}`) }).click();

    // A value set back is no change at all.
    await choose(page, 'Threshold of high disk usage', '90 %');
    await eventually(() => isChanged(row(page, 'high disk usage'))).toBe(true);
    await choose(page, 'Threshold of high disk usage', '85 %');
    await eventually(() => isChanged(row(page, 'high disk usage'))).toBe(false);

    await show(page.getByText('4 rules changed, not saved'));
    // Held, not sent.
    expect((await rulesOf(admin, ids.web!))!.high_cpu_usage).toMatchObject({ threshold: 90, notificationGroup: null });

    await updateButton(page).click();
    await eventually(async () => (await rulesOf(admin, ids.web!))!.high_cpu_usage).toMatchObject({ threshold: 80, notificationGroup: groups.Ops });
    const saved = (await rulesOf(admin, ids.web!))!;
    expect(saved.critical_disk_usage!.timeLimit).toBe(120);
    expect(saved.high_memory_usage!.severity).toBe('critical');
    expect(saved.service_down!.enabled).toBe(false);
    expect(saved.high_disk_usage!.threshold).toBe(85);
    await eventually(() => updateButton(page).isDisabled()).toBe(true);
    expect(await page.locator('tr[data-changed]').count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Notification group of high cpu usage' }).getAttribute('placeholder')).toBe(groups.OpsName);
  }, 180_000);

  it('warns before leaving with unsaved edits, and Discard drops them', async () => {
    const { page } = b;
    await toggle(page, 'Enabled: instance down');
    await eventually(() => isChanged(row(page, 'instance down'))).toBe(true);
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.dismiss();
    });
    await page.getByRole('tab', { name: 'CPU' }).click();
    await eventually(() => asked).toMatch(/unsaved changes/);
    expect(new URL(page.url()).searchParams.get('tab')).toBe('alerts-config');
    expect(await isChanged(row(page, 'instance down'))).toBe(true);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await eventually(() => isChanged(row(page, 'instance down'))).toBe(false);
    expect(await page.getByRole('switch', { name: 'Enabled: instance down' }).isChecked()).toBe(true);
  }, 180_000);

  it('Reset To Default asks, then puts every rule back', async () => {
    const { page } = b;
    await page.getByRole('button', { name: 'Reset To Default' }).click();
    const confirm = page.getByRole('alertdialog');
    await show(confirm.getByText(/Reset the alert rules of web-\w+ to the defaults\?/));
    await confirm.getByRole('button', { name: 'Reset' }).click();
    await eventually(async () => (await rulesOf(admin, ids.web!))!.high_cpu_usage).toMatchObject({ threshold: 90, notificationGroup: null });
    const rules = (await rulesOf(admin, ids.web!))!;
    expect(rules.service_down!.enabled).toBe(true);
    expect(rules.critical_disk_usage!.timeLimit).toBe(60);
    expect(rules.high_memory_usage!.severity).toBe('warning');
    await eventually(() => page.getByRole('button', { name: /Threshold of high cpu usage/ }).textContent()).toContain('90 %');
    expect(await page.getByRole('switch', { name: 'Enabled: service down' }).isChecked()).toBe(true);
  }, 180_000);

  it('on the open tab the command line edits the held draft and rules.save sends it; elsewhere a command saves at once', async () => {
    const { page } = b;
    await commandLine(page, 'rules.set-threshold "high cpu usage" 70');
    await show(page.getByText(/Held until you press/));
    await eventually(() => isChanged(row(page, 'high cpu usage'))).toBe(true);
    await commandLine(page, `rules.set-group high_cpu_usage "${groups.DBName}"`);
    await commandLine(page, 'rules.set-grace "instance down" 3m');
    await commandLine(page, 'rules.disable "high memory usage"');
    expect((await rulesOf(admin, ids.web!))!.high_cpu_usage!.threshold).toBe(90);
    await eventually(() => page.locator('tr[data-changed]').count()).toBe(3);
    await commandLine(page, 'rules.save');
    await eventually(async () => (await rulesOf(admin, ids.web!))!.high_cpu_usage).toMatchObject({ threshold: 70, notificationGroup: groups.DB });
    const rules = (await rulesOf(admin, ids.web!))!;
    expect(rules.instance_down!.timeLimit).toBe(180);
    expect(rules.high_memory_usage!.enabled).toBe(false);
    await eventually(() => page.locator('tr[data-changed]').count()).toBe(0);

    // A value outside SPEC's choices is refused, nothing held.
    await commandLine(page, 'rules.set-threshold "high cpu usage" 75');
    await show(page.getByText(/Threshold must be one of 99, 95, 90, 85, 80, 70, 60/));
    expect(await page.locator('tr[data-changed]').count()).toBe(0);

    // From the servers list: fetch, change and save at once, by hostname.
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Servers' }).first().click();
    await page.waitForURL((u) => u.pathname === '/servers');
    const dbHost = hostnames.db!;
    await commandLine(page, `rules.disable high_memory_usage --server ${dbHost}`);
    await eventually(async () => (await rulesOf(admin, ids.db!))!.high_memory_usage!.enabled).toBe(false);
    await commandLine(page, `rules.set-grace "high cpu usage" 2m --server ${dbHost}`);
    await eventually(async () => (await rulesOf(admin, ids.db!))!.high_cpu_usage!.timeLimit).toBe(120);
    await commandLine(page, `rules.set-group "high cpu usage" "${groups.OpsName}" --server ${dbHost}`);
    await eventually(async () => (await rulesOf(admin, ids.db!))!.high_cpu_usage!.notificationGroup).toBe(groups.Ops);
    await commandLine(page, 'rules.save');
    await show(page.getByText(/No rule edits are held/));
    await commandLine(page, `rules.reset --server ${dbHost}`);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Reset' }).click();
    await eventually(async () => (await rulesOf(admin, ids.db!))!.high_memory_usage!.enabled).toBe(true);
    await page.keyboard.press('Escape');
  }, 180_000);

  it('a server without an alert config offers to create the defaults', async (ctx) => {
    if (!db) return ctx.skip();
    const { page } = b;
    expect(await rulesOf(admin, ids.bare!)).toBeNull();
    await openTab(page, ids.bare!);
    await show(page.getByRole('heading', { name: 'No Alert Config Found' }));
    await show(page.getByText('This server has no alert config. Please create one.'));
    await page.getByRole('button', { name: 'Create Default Alert Rules' }).click();
    await show(row(page, 'high cpu usage'));
    expect(await page.getByRole('rowheader').count()).toBe(8);
    expect(Object.keys((await rulesOf(admin, ids.bare!))!)).toHaveLength(8);
  }, 180_000);

  it('shows a loading table, then a load error with Retry', async () => {
    const { page } = b;
    const path = '**/api/alert-config/get-alert-config/all';
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(path, async (route) => {
      await held;
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'The database is restarting' }) });
    });
    await openTab(page, ids.web!);
    await show(page.locator('table[aria-busy="true"]'));
    expect(await page.getByRole('rowheader').count()).toBe(0);
    release();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load the alert rules.' });
    await show(alert);
    await show(alert.getByText('The database is restarting'));
    await page.unroute(path);
    await alert.getByRole('button', { name: 'Retry' }).click();
    await show(row(page, 'high cpu usage'));
    await hide(alert);
  }, 180_000);

  it('the user role sees the rules read-only and the commands are refused', async () => {
    const email = `viewer-${randomBytes(3).toString('hex')}@example.com`;
    expect((await admin.createUser({ username: email.split('@')[0]!, email, password: 'viewer-password', role: 'user' })).status).toBe(201);
    const viewer = await openBrowser(baseURL);
    viewer.context.setDefaultTimeout(30_000);
    try {
      const { page } = viewer;
      await signIn(page, email, 'viewer-password');
      await openTab(page, ids.web!);
      await show(row(page, 'high cpu usage'));
      await show(page.getByText('Read only: your role cannot change alert rules.'));
      expect(await row(page, 'high cpu usage').getByRole('cell').nth(2).textContent()).toBe('70 %');
      expect(await page.getByRole('button', { name: /Threshold of/ }).count()).toBe(0);
      expect(await page.getByRole('combobox', { name: /^Notification group of/ }).count()).toBe(0);
      expect(await row(page, 'high cpu usage').getByRole('cell').nth(5).textContent()).toBe(groups.DBName);
      expect(await page.getByRole('switch', { name: 'Enabled: high cpu usage' }).isDisabled()).toBe(true);
      expect(await updateButton(page).isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Reset To Default' }).isDisabled()).toBe(true);
      await commandLine(page, 'rules.disable "high cpu usage"');
      await show(page.getByText('Only Admin or sysadmin accounts can do this.').last());
      expect((await rulesOf(admin, ids.web!))!.high_cpu_usage!.enabled).toBe(true);
    } finally {
      await viewer.close();
    }
  }, 180_000);
});
