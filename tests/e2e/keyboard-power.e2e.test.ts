import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { commandLine, gone, openBrowser, openPalette, runFromPalette, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { startServer, type RunningServer } from './server-process';

/**
 * Issue 13 "Keyboard power" in the browser, against a server of its own whose data folder is
 * seeded before it starts (servers, a group and alerts; the evaluator is off so the alerts stay
 * as written): undo from a notice and with Ctrl+Z, the shortcut a palette run teaches, and
 * marks (Space, Shift+Space, Escape) with a command applied to every marked row.
 */
type Session = Awaited<ReturnType<typeof apiSession>>;
const SERVERS = 6;

async function seed(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    await database.query(
      `insert into servers (hostname, ipaddress, operating_system, is_agent_configured, created_at)
       select 'kp-web-' || lpad(g::text, 2, '0'), '10.251.0.' || g, 'linux', false, now() - make_interval(mins => g) from generate_series(1, ${SERVERS}) g`,
    );
    await database.query(`insert into notification_groups (name, description, email_list) values ('KP Oncall', '', array['a@example.com'])`);
    // One firing alert per server, newest first by server number.
    await database.query(
      `insert into alerts (server_id, hostname, instance, alertname, type, severity, status, subject, summary, created_at)
       select id, hostname, ipaddress, 'high_disk_usage', 'resouce_alert', 'warning', 'firing', 'disk-' || hostname, 'Disk almost full', now() - (right(hostname, 2)::int * interval '1 minute')
       from servers where hostname like 'kp-web-%'`,
    );
  } finally {
    await database.close();
  }
}

const notice = (page: Page) => page.getByTestId('notice');

describe('keyboard power', () => {
  let server: RunningServer;
  let admin: Session;
  let b: Browser;
  const serverByName = async (hostname: string) =>
    (await admin.call<{ result: { data: { _id: string; suppressAlarm: string }[] } }>('POST', 'servers/all', { pageNumber: 1, pageSize: 10, filter: { hostname: { eq: hostname } } })).body.result.data[0]!;
  const group = async () => (await admin.call<{ result: { data: { _id: string; emailList: string[] }[] } }>('POST', 'notification-groups/all', { pageNumber: 1, pageSize: 10, filter: { name: { eq: 'KP Oncall' } } })).body.result.data[0]!;
  const history = async (command: string) =>
    (await admin.call<{ result: { data: { _id: string; undoOf: string | null; source: string }[] } }>('POST', 'command-history/all', { pageNumber: 1, pageSize: 20, filter: { command: { eq: command } } })).body.result.data;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-e2e-keys-'));
    await seed(dataDir);
    server = await startServer({ dataDir, env: { ALERT_EVALUATION: '0' } });
    admin = await apiSession(server.url);
    b = await openBrowser(server.url);
    await signIn(b.page);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  it('undoes a palette run from its notice, and the history records the undo of that run', async () => {
    const { page } = b;
    const input = await openPalette(page);
    await input.fill('Toggle server maintenance');
    await input.press('Enter');
    await input.fill('kp-web-03');
    await page.getByRole('option', { name: /kp-web-03/ }).waitFor();
    await input.press('Enter');
    await input.fill('On');
    await input.press('Enter');
    await shown(notice(page).getByText('Maintenance on for kp-web-03'));
    expect((await serverByName('kp-web-03')).suppressAlarm).toBe('yes');
    await notice(page).getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await serverByName('kp-web-03')).suppressAlarm, { timeout: 15_000 }).toBe('no');
    await shown(notice(page).getByText('Undone: Maintenance on for kp-web-03'));
    const [undoRun, run] = await history('server.toggle-maintenance');
    expect(run).toMatchObject({ undoOf: null, source: 'palette' });
    expect(undoRun).toMatchObject({ undoOf: run!._id, source: 'ui' });
  });

  it('Ctrl+Z undoes the last undoable run, but not while typing in a field', async () => {
    const { page } = b;
    await commandLine(page, 'group.add-email "KP Oncall" b@example.com');
    await shown(page.getByText('Undo it with history.undo'));
    expect((await group()).emailList).toEqual(['a@example.com', 'b@example.com']);
    await page.keyboard.press('Escape');
    await page.goto('/servers');
    // In a text field Ctrl+Z is the field's own.
    const search = page.getByPlaceholder('Search by Hostname');
    await search.click();
    await page.keyboard.press('Control+z');
    await page.waitForTimeout(500);
    expect((await group()).emailList).toEqual(['a@example.com', 'b@example.com']);
    await page.locator('h1').click();
    await page.keyboard.press('Control+z');
    await shown(notice(page).getByText('Undone: Added b@example.com to KP Oncall'));
    await expect.poll(async () => (await group()).emailList, { timeout: 15_000 }).toEqual(['a@example.com']);
    const [undoRun, run] = await history('group.remove-email').then(async (undos) => [undos[0], (await history('group.add-email'))[0]]);
    expect(undoRun).toMatchObject({ undoOf: run!._id, source: 'hotkey' });
    // Nothing left to undo: Ctrl+Z says so.
    await page.keyboard.press('Control+z');
    await shown(notice(page).getByText('Nothing to undo.'));
  });

  it('a palette run of a command with a shortcut teaches the shortcut in its notice', async () => {
    const { page } = b;
    const input = await openPalette(page);
    await input.fill('Go to Notification Groups');
    await input.press('Enter');
    await page.waitForURL((u) => u.pathname === '/notification-groups');
    await shown(notice(page).getByText('Alt+4'));
    await gone(page.getByRole('dialog', { name: 'Command palette' }));
  });

  it('marks servers with Space and Shift+Space, runs one command on all of them after one preview, and undoes them together', async () => {
    const { page } = b;
    await page.goto('/servers?view=table&sortBy=hostname&sortDir=asc');
    const table = page.getByRole('table', { name: 'Servers' });
    const row = (host: string) => table.getByRole('row').filter({ hasText: host });
    await shown(row('kp-web-01'));
    await row('kp-web-02').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+Space');
    const bar = page.getByRole('status', { name: 'Marked rows' });
    await shown(bar.getByText('3 servers marked'));
    expect(await row('kp-web-03').getAttribute('data-marked')).toBe('true');
    expect(await row('kp-web-05').getAttribute('data-marked')).toBeNull();

    const input = await openPalette(page);
    await input.fill('Toggle server maintenance');
    await shown(page.getByRole('option', { name: /Toggle server maintenance.*3 servers marked/ }));
    await input.press('Enter');
    await input.fill('On');
    await input.press('Enter');
    const confirm = page.getByRole('alertdialog');
    await shown(confirm.getByText('Toggle server maintenance for 3 servers: kp-web-02, kp-web-03 and kp-web-04?'));
    await confirm.getByRole('button', { name: 'Run on 3' }).click();
    await shown(notice(page).getByText('Toggle server maintenance: done for 3 servers.'));
    const states = async () => Promise.all(['kp-web-01', 'kp-web-02', 'kp-web-03', 'kp-web-04', 'kp-web-05'].map(async (h) => (await serverByName(h)).suppressAlarm));
    expect(await states()).toEqual(['no', 'yes', 'yes', 'yes', 'no']);
    // The rows it went through are no longer marked; one undo reverses all three.
    await gone(bar);
    await notice(page).getByRole('button', { name: 'Undo' }).click();
    await shown(notice(page).getByText('Undone: Toggle server maintenance on 3 servers'));
    await expect.poll(states, { timeout: 15_000 }).toEqual(['no', 'no', 'no', 'no', 'no']);
  });

  it('marks alert cards, applies a command-line command without a target to them, and Escape clears marks', async () => {
    const { page } = b;
    await page.goto('/notifications');
    const card = (host: string) => page.getByRole('article').filter({ hasText: host });
    await shown(card('kp-web-01'));
    await card('kp-web-01').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    const bar = page.getByRole('status', { name: 'Marked rows' });
    await shown(bar.getByText('2 alerts marked'));
    // Escape on a marked card clears; mark again.
    await page.keyboard.press('Escape');
    await gone(bar);
    await page.keyboard.press('Shift+Space');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Shift+Space');
    await shown(bar.getByText('2 alerts marked'));

    // ':' opens the command line over the marked cards (the shared helper would Escape first).
    await page.keyboard.type(':');
    const line = page.getByRole('textbox', { name: 'Command line' });
    await line.fill('alert.resolve --note "fixed in one go"');
    await line.press('Enter');
    const confirm = page.getByRole('alertdialog');
    await shown(confirm.getByText(/Resolve alert for 2 alerts: high disk usage on kp-web-0[12] and high disk usage on kp-web-0[12]\?/));
    await confirm.getByRole('button', { name: 'Run on 2' }).click();
    await shown(page.getByText('Resolve alert: done for 2 alerts.'));
    const statuses = async () =>
      Object.fromEntries(
        (await admin.call<{ result: { data: { hostname: string; status: string }[] } }>('POST', 'alerts/all', { pageNumber: 1, pageSize: 25 })).body.result.data.map((a) => [a.hostname, a.status]),
      );
    expect(await statuses()).toMatchObject({ 'kp-web-01': 'resolved', 'kp-web-02': 'resolved', 'kp-web-03': 'firing' });
  });

  it('an alias made on the command line runs there with the words after it, completes with Tab, and in the palette asks only what its line leaves out', async () => {
    const { page } = b;
    await page.goto('/notifications');
    const alertOf = async (host: string) =>
      (await admin.call<{ result: { data: { _id: string; status: string; snoozedUntil: string | null }[] } }>('POST', 'alerts/all', { pageNumber: 1, pageSize: 5, filter: { hostname: { eq: host } } })).body.result.data[0]!;
    await commandLine(page, 'alias.set ack1h "alert.snooze --for 1h"');
    await shown(page.getByText('ack1h now runs alert.snooze --for 1h'));
    const line = page.getByRole('textbox', { name: 'Command line' });
    await line.fill('ack');
    await line.press('Tab');
    expect(await line.inputValue()).toBe('ack1h ');
    const a3 = await alertOf('kp-web-03');
    await line.fill(`ack1h ${a3._id} --note "quiet for an hour"`);
    await line.press('Enter');
    await shown(page.getByText(/Snoozed high disk usage on kp-web-03 for 1h/));
    const snoozed = await alertOf('kp-web-03');
    expect(snoozed.status).toBe('snoozed');
    expect(Math.abs(Date.parse(snoozed.snoozedUntil!) - Date.now() - 3600_000)).toBeLessThan(120_000);

    await page.keyboard.press('Escape');
    const input = await openPalette(page);
    await input.fill('ack1h');
    await shown(page.getByRole('option', { name: /ack1h.*alert\.snooze --for 1h/ }));
    await input.press('Enter');
    await input.fill('kp-web-04');
    await page.getByRole('option', { name: /high disk usage · kp-web-04/ }).waitFor();
    await input.press('Enter');
    await input.fill('from the palette');
    await input.press('Enter');
    await shown(notice(page).getByText(/Snoozed high disk usage on kp-web-04 for 1h/));
    expect((await alertOf('kp-web-04')).status).toBe('snoozed');
  });

  it('the empty palette shows this person’s recent commands and entities first, after a reload too', async () => {
    const { page } = b;
    await page.reload();
    const input = await openPalette(page);
    const rows = page.getByRole('dialog', { name: 'Command palette' }).getByRole('option');
    await shown(rows.first());
    const first = await rows.evaluateAll((els) => els.slice(0, 8).map((e) => e.textContent ?? ''));
    // The alias (twice: command line and palette) leads; the alert picked and the commands run follow.
    expect(first[0]).toMatch(/^Recentack1h/);
    expect(first.every((t) => t.startsWith('Recent'))).toBe(true);
    expect(first.join('\n')).toMatch(/Recenthigh disk usage · kp-web-04/);
    expect(first.join('\n')).toMatch(/RecentToggle server maintenance/);
    await input.fill('toggle');
    await shown(rows.first());
    expect(await rows.first().textContent()).toMatch(/Toggle server maintenance/);
  });

  it('[ and ] move back and forward through the views visited, - toggles the last two, and none of them fire while typing', async () => {
    const { page } = b;
    const path = () => new URL(page.url()).pathname;
    await page.goto('/');
    await page.locator('h1').first().click();
    await page.keyboard.press('Alt+2');
    await page.waitForURL((u) => u.pathname === '/servers');
    await page.keyboard.press('Alt+3');
    await page.waitForURL((u) => u.pathname === '/notifications');
    await page.locator('h1').click();
    await page.keyboard.press('[');
    await page.waitForURL((u) => u.pathname === '/servers');
    await page.keyboard.press('[');
    await page.waitForURL((u) => u.pathname === '/');
    await page.keyboard.press(']');
    await page.waitForURL((u) => u.pathname === '/servers');
    // '-' goes to the view this one was reached from, and again comes back.
    await page.keyboard.press('-');
    await page.waitForURL((u) => u.pathname === '/');
    await page.keyboard.press('-');
    await page.waitForURL((u) => u.pathname === '/servers');
    await page.getByPlaceholder('Search by Hostname').click();
    await page.keyboard.type('[-');
    await page.waitForTimeout(300);
    expect(path()).toBe('/servers');
    expect(await page.getByPlaceholder('Search by Hostname').inputValue()).toBe('[-');
    // The overview lists them with their keys.
    await page.locator('h1').click();
    await page.keyboard.press('?');
    await shown(page.getByRole('dialog').getByText('Toggle last two views'));
  });

  it('registry keys are the characters a layout types: ":" unshifted (French), "?" as Shift+ß (German), "[" as Option+5 (German Mac)', async () => {
    const { page } = b;
    // Keydowns as those layouts send them (Playwright's own keyboard is a US one).
    const keydown = (init: { key: string; code: string; shiftKey?: boolean; altKey?: boolean }) =>
      page.evaluate((i) => document.body.dispatchEvent(new KeyboardEvent('keydown', { ...i, bubbles: true, cancelable: true })), init);
    await page.goto('/servers');
    await page.locator('h1').click();
    await keydown({ key: ':', code: 'Period' });
    await shown(page.getByRole('textbox', { name: 'Command line' }));
    await page.keyboard.press('Escape');
    await gone(page.getByRole('textbox', { name: 'Command line' }));
    await keydown({ key: '?', code: 'Minus', shiftKey: true });
    const overview = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await shown(overview);
    // The overview lists the marks keys beside the widgets' (declared once, on their commands).
    await shown(overview.getByText('Mark or unmark row'));
    await page.keyboard.press('Escape');
    await gone(overview);
    // A view visited in the app (the view history is the app's), then back with a German Mac's "[".
    await page.locator('h1').first().click();
    await page.keyboard.press('Alt+3');
    await page.waitForURL((u) => u.pathname === '/notifications');
    await page.locator('h1').first().click();
    await keydown({ key: '[', code: 'Digit5', altKey: true });
    await page.waitForURL((u) => u.pathname === '/servers');
  });

  it('history.show --outcome error opens the history panel filtered; its filter boxes run history.show', async () => {
    const { page } = b;
    await page.goto('/servers');
    // A run the server refuses (the name is taken), beside the ok runs of the tests above: the
    // server records it with its outcome (a run refused before any call leaves no record).
    expect((await admin.call('POST', 'notification-groups', { name: 'KP Taken' })).status).toBe(201);
    await commandLine(page, 'group.create --name "KP Taken"');
    type Entry = { _id: string; command: string; outcome: string };
    const records = async (outcome: string) =>
      (await admin.call<{ result: { data: Entry[] } }>('POST', 'command-history/all', { pageNumber: 1, pageSize: 100, filter: { outcome: { eq: outcome } }, sort: { by: 'createdAt', direction: 'desc' } })).body.result.data;
    await expect.poll(async () => (await records('error')).some((r) => r.command === 'group.create'), { timeout: 15_000 }).toBe(true);
    const failed = (await records('error')).find((r) => r.command === 'group.create')!;
    const ok = (await records('ok'))[0]!;
    expect(ok).toBeDefined();

    await commandLine(page, 'history.show --outcome error');
    const panel = page.getByRole('dialog', { name: 'Command history' });
    await shown(panel.locator(`li[data-record="${failed._id}"]`));
    expect(await panel.locator(`li[data-record="${ok._id}"]`).count()).toBe(0);
    expect(await panel.getByLabel('Filter by outcome').inputValue()).toBe('error');

    // Typing in the command box runs history.show through the gate: text it refuses is said, the list stays.
    const box = panel.getByLabel('Filter by command');
    await box.fill('x'.repeat(501));
    await shown(notice(page).getByText(/^Show command history: Command/));
    await shown(panel.locator(`li[data-record="${failed._id}"]`));
    // A command's name filters the panel, keeping the outcome; a name no run has empties it.
    await box.fill('group.cre');
    // Counted as entries: Opsdeck's own events share the list (issue 24 §4).
    await shown(panel.getByText(/^1 entry$/));
    await shown(panel.locator(`li[data-record="${failed._id}"]`));
    await box.fill('kp-no-such-command');
    await shown(panel.getByText('No commands yet.'));
    await gone(panel.locator(`li[data-record="${failed._id}"]`));
    expect(await panel.getByLabel('Filter by outcome').inputValue()).toBe('error');
    // The outcome box runs it too: any outcome, with the command filter kept.
    await box.fill('');
    await panel.getByLabel('Filter by outcome').selectOption('');
    await shown(panel.locator(`li[data-record="${ok._id}"]`));
    // From the command line again, another filter: the open panel's boxes follow it.
    await commandLine(page, 'history.show --user admin --command group.create');
    await shown(panel.locator(`li[data-record="${failed._id}"]`));
    expect(await panel.getByLabel('Filter by user').inputValue()).toBe('admin');
    expect(await panel.getByLabel('Filter by command').inputValue()).toBe('group.create');
    expect(await panel.getByLabel('Filter by outcome').inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await gone(panel);
    // The palette finds it and asks its arguments (Enter skips one).
    await runFromPalette(page, 'Show command history', ['', '', 'error', '']);
    await shown(panel.locator(`li[data-record="${failed._id}"]`));
    expect(await panel.getByLabel('Filter by outcome').inputValue()).toBe('error');
    expect(await panel.getByLabel('Filter by command').inputValue()).toBe('');
    expect(await panel.locator(`li[data-record="${ok._id}"]`).count()).toBe(0);
    await page.keyboard.press('Escape');
    await gone(panel);
  });
});
