import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { commandLine, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

/**
 * The On Call screens (issue 27 §1) in a real browser: the menu's On Call lists schedules with who
 * is on call now; a schedule shows its layers, the next two weeks and its overrides; an override
 * made on the command line appears there. Effects confirmed through the API.
 */
describe('on call', () => {
  let admin: Browser;
  let api: Awaited<ReturnType<typeof apiSession>>;
  const baseURL = inject('baseURL');
  const ids: Record<string, string> = {};
  let scheduleId = '';

  beforeAll(async () => {
    [admin, api] = await Promise.all([openBrowser(baseURL), apiSession(baseURL)]);
    for (const name of ['oc-ana', 'oc-ben']) {
      const made = await api.call('POST', 'users', { username: name, email: `${name}@example.com`, phonenumber: '+1 555 0142', password: 'pw-123456', role: 'user' });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      ids[name] = made.body.result._id;
    }
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const schedule = await api.call('POST', 'oncall-schedules', { name: 'Team e2e', timeZone: 'UTC', layers: [{ name: 'primary', participants: [ids['oc-ana'], ids['oc-ben']], shift: { length: 1, unit: 'days' }, start: yesterday, handoff: '00:00' }] });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    scheduleId = schedule.body.result._id;
    await signIn(admin.page);
  });
  afterAll(async () => admin?.close());

  it('lists schedules with who is on call, and shows one with its layers, the next two weeks and its overrides', async () => {
    const { page } = admin;
    const now = (await api.call('GET', `oncall/who?schedule=${scheduleId}`)).body.result[0].person.username as string;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'On Call' }).click();
    await shown(page.getByRole('heading', { name: 'On Call', level: 1 }));
    const row = page.getByRole('table', { name: 'On-call schedules' }).getByRole('row', { name: /Team e2e/ });
    await shown(row.getByText(new RegExp(`^${now} \\(primary\\) until`)));
    await row.getByText('Team e2e').click();
    await shown(page.getByRole('heading', { name: /Team e2e/, level: 1 }));
    await shown(page.getByRole('table', { name: 'Layers' }).getByText('oc-ana → oc-ben'));
    // Fourteen days of daily shifts: fourteen or fifteen spans, alternating.
    const spans = page.getByRole('listitem').filter({ hasText: /oc-(ana|ben)/ });
    await shown(spans.first());
    expect(await spans.count()).toBeGreaterThanOrEqual(14);

    const from = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 13) + ':00:00Z';
    const to = new Date(Date.parse(from) + 4 * 3_600_000).toISOString().replace('.000', '');
    await commandLine(page, `oncall.override "Team e2e" oc-ben --from ${from} --to ${to}`);
    await shown(page.getByRole('table', { name: 'Overrides' }).getByText('oc-ben'));
    const stored = (await api.call('GET', `oncall-schedules/${scheduleId}`)).body.result;
    expect(stored.overrides).toMatchObject([{ person: ids['oc-ben'], start: new Date(from).toISOString(), end: new Date(to).toISOString() }]);
  });

  /** Answers the palette that a timeline range opened: who covers it. */
  async function whoCovers(page: Page, username: string, range: string) {
    const dialog = page.getByRole('dialog', { name: 'Command palette' });
    const input = dialog.getByRole('combobox', { name: /Who covers/ });
    await shown(input);
    // The range chosen on the timeline is said in the palette, which asks only for the person.
    await shown(dialog.getByText(range, { exact: true }));
    await input.fill(username);
    await shown(dialog.getByRole('option', { name: new RegExp(username) }));
    await input.press('Enter');
  }

  const overrideIn = async (start: string, end: string) =>
    ((await api.call('GET', `oncall-schedules/${scheduleId}`)).body.result.overrides as { person: string; start: string; end: string }[]).find((o) => o.start === start && o.end === end);

  it('the timeline moves by keyboard, says who is on call in the focused hour, and makes an override of a range chosen with Shift+arrows', async () => {
    const { page } = admin;
    await page.goto(`/oncall/${scheduleId}`);
    const grid = page.getByRole('grid', { name: 'On-call timeline, next two weeks' });
    await shown(grid);
    const focused = grid.locator('[role="gridcell"][tabindex="0"]');
    // Tab reaches the grid at one hour (the current one), which names who is on call then.
    const first = await focused.getAttribute('data-start');
    expect(Date.parse(first!)).toBeLessThanOrEqual(Date.now());
    const nowWho = (await api.call('GET', `oncall/who?schedule=${scheduleId}&at=${encodeURIComponent(first!)}`)).body.result[0].person.username as string;
    await focused.focus();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toContain(`: ${nowWho} (`);
    // Right by an hour, down by a day (the same hour), End to the day's last hour, Home to its first.
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-start'))).toBe(new Date(Date.parse(first!) + 3_600_000).toISOString());
    await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
    const fiveDays = await page.evaluate(() => document.activeElement?.getAttribute('data-start'));
    expect(new Date(fiveDays!).getHours()).toBe(new Date(first!).getHours());
    expect(Date.parse(fiveDays!) - Date.parse(first!)).toBeGreaterThanOrEqual(5 * 86_400_000 - 3_600_000);
    await page.keyboard.press('End');
    expect(new Date((await page.evaluate(() => document.activeElement?.getAttribute('data-start')))!).getHours()).toBe(23);
    await page.keyboard.press('Home');
    const dayStart = (await page.evaluate(() => document.activeElement?.getAttribute('data-start')))!;
    expect(new Date(dayStart).getHours()).toBe(0);
    // Three hours from 02:00: Shift+Right twice selects them, Enter opens the override's form.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const start = (await page.evaluate(() => document.activeElement?.getAttribute('data-start')))!;
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    const end = (await page.evaluate(() => document.activeElement?.getAttribute('data-end')))!;
    expect(Date.parse(end) - Date.parse(start)).toBe(3 * 3_600_000);
    expect(await grid.locator('[aria-selected="true"]').count()).toBe(3);
    await shown(page.getByRole('status').filter({ hasText: /^Selected .* \(3 hours\)\. Press Enter to make an override\.$/ }));
    const range = (await page.getByTestId('timeline-focus').innerText()).replace(/ selected$/, '');
    await page.keyboard.press('Enter');
    await whoCovers(page, 'oc-ana', range);
    await expect.poll(() => overrideIn(start, end), { timeout: 10_000 }).toMatchObject({ person: ids['oc-ana'] });
    // The timeline shows it: the chosen hours now say the override's person.
    await shown(grid.locator(`[data-start="${start}"][aria-label$=": oc-ana (override)"]`));
  });

  it('a drag across hours with the mouse makes an override of them', async () => {
    const { page } = admin;
    const grid = page.getByRole('grid', { name: 'On-call timeline, next two weeks' });
    await shown(grid);
    // Seven days on, 10:00 to 13:59: the first and last of four hours.
    const rows = grid.getByRole('row');
    const day = rows.nth(7);
    const cells = day.getByRole('gridcell');
    const from = cells.nth(10);
    const to = cells.nth(13);
    const start = (await from.getAttribute('data-start'))!;
    const end = (await to.getAttribute('data-end'))!;
    expect(Date.parse(end) - Date.parse(start)).toBe(4 * 3_600_000);
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
    expect(await grid.locator('[aria-selected="true"]').count()).toBe(4);
    const range = (await page.getByTestId('timeline-focus').innerText()).replace(/ selected$/, '');
    await page.mouse.up();
    await whoCovers(page, 'oc-ben', range);
    await expect.poll(() => overrideIn(start, end), { timeout: 10_000 }).toMatchObject({ person: ids['oc-ben'] });
    await shown(grid.locator(`[data-start="${start}"][aria-label$=": oc-ben (override)"]`));
  });

  it("a schedule's and one's own calendar feed URLs are made, shown once to copy, and revoked on screen", async () => {
    const { page, context } = admin;
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const feedStatus = async (url: string) => (await fetch(url.replace(/^https?:\/\/[^/]+/, baseURL))).status;
    await page.goto(`/oncall/${scheduleId}`);
    const feed = page.getByRole('region', { name: 'Calendar feed' });
    await shown(feed.getByText('No feed URL yet.'));
    await feed.getByRole('button', { name: 'Make feed URL' }).click();
    const field = feed.getByRole('textbox', { name: 'Calendar feed of Team e2e URL' });
    await shown(field);
    const url = await field.inputValue();
    expect(url).toMatch(/\/api\/oncall\/calendar\?token=/);
    const calendar = await fetch(url.replace(/^https?:\/\/[^/]+/, baseURL));
    expect(calendar.status).toBe(200);
    expect(await calendar.text()).toContain('BEGIN:VCALENDAR');
    await feed.getByRole('button', { name: 'Copy Calendar feed of Team e2e URL' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    expect((await api.call('GET', `oncall-schedules/${scheduleId}`)).body.result.feed).toBe(true);
    await feed.getByRole('button', { name: 'Revoke feed URL' }).click();
    await shown(feed.getByText('No feed URL yet.'));
    expect(await feedStatus(url)).toBe(404);

    await page.goto('/oncall');
    const mine = page.getByRole('region', { name: 'My calendar feed' });
    await mine.getByRole('button', { name: 'Make my feed URL' }).click();
    const myField = mine.getByRole('textbox', { name: 'My calendar feed URL' });
    await shown(myField);
    const myUrl = await myField.inputValue();
    expect(await feedStatus(myUrl)).toBe(200);
    await mine.getByRole('button', { name: 'Replace my feed URL' }).click();
    await expect.poll(() => myField.inputValue()).not.toBe(myUrl);
    expect(await feedStatus(myUrl)).toBe(404);
    const replaced = await myField.inputValue();
    await mine.getByRole('button', { name: 'Revoke my feed URL' }).click();
    await expect.poll(() => myField.count()).toBe(0);
    expect(await feedStatus(replaced)).toBe(404);
  });

  it('imports a schedule from an .ics file chosen with the file picker, and from one dropped on the screen', async () => {
    const { page } = admin;
    await page.goto('/oncall');
    const day = (n: number) => new Date(Math.floor(Date.now() / 86_400_000 + 1 + n) * 86_400_000).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    const ics = (team: string) =>
      ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//e2e//EN', ...[0, 1, 2, 3].flatMap((i) => ['BEGIN:VEVENT', `UID:${team}-${i}`, `DTSTAMP:${day(0)}`, `DTSTART:${day(i)}`, `DTEND:${day(i + 1)}`, `SUMMARY:On Call - ${i % 2 ? 'oc-ben' : 'oc-ana'} - ${team}`, `ATTENDEE:mailto:${i % 2 ? 'oc-ben' : 'oc-ana'}@example.com`, 'END:VEVENT']), 'END:VCALENDAR', ''].join('\r\n');
    const dialog = page.getByRole('dialog', { name: 'Command palette' });
    const answer = async (file: string, name: string) => {
      await shown(dialog.getByText(`from ${file}`, { exact: true }));
      const input = dialog.getByRole('combobox', { name: /: Name$/ });
      await shown(input);
      await input.fill(name);
      await input.press('Enter');
      // The time zone and the start are optional: Enter skips each.
      for (let i = 0; i < 3 && (await dialog.isVisible()); i++) await dialog.getByRole('combobox').press('Enter').catch(() => undefined);
    };
    const imported = async (name: string) => ((await api.call('POST', 'oncall-schedules/all', { pageNumber: 1, pageSize: 100 })).body.result.data as { name: string; layers: { participants: string[] }[]; overrides: unknown[] }[]).find((x) => x.name === name);

    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose .ics file' }).click();
    await (await chooser).setFiles({ name: 'picked.ics', mimeType: 'text/calendar', buffer: Buffer.from(ics('Picked')) });
    await answer('picked.ics', 'Picked e2e');
    await expect.poll(() => imported('Picked e2e'), { timeout: 10_000 }).toBeTruthy();
    const picked = (await imported('Picked e2e'))!;
    expect([...new Set([...picked.layers.flatMap((l) => l.participants)])].sort()).toEqual([ids['oc-ana'], ids['oc-ben']].sort());
    await shown(page.getByRole('table', { name: 'On-call schedules' }).getByRole('row', { name: /Picked e2e/ }));

    // A real drag of a file from disk (Chromium's own drag events, through DevTools): a DataTransfer
    // made in the page carries no file-system entry, and a drop zone rightly reads only real files.
    const dir = mkdtempSync(join(tmpdir(), 'opsdeck-ics-'));
    const path = join(dir, 'dropped.ics');
    writeFileSync(path, ics('Dropped'));
    const zone = (await page.getByRole('region', { name: 'Import a calendar' }).locator('[data-file-drop]').boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const at = { x: zone.x + zone.width / 2, y: zone.y + zone.height / 2 };
    const data = { items: [], files: [path], dragOperationsMask: 1 };
    for (const type of ['dragEnter', 'dragOver', 'drop'] as const) await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
    await cdp.detach();
    await answer('dropped.ics', 'Dropped e2e');
    await expect.poll(() => imported('Dropped e2e'), { timeout: 10_000 }).toBeTruthy();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the top bar shows the signed-in person's shift once they have one, linking to its schedule; both update live when someone else changes the schedule", async () => {
    const { page } = admin;
    const adminId = (await api.call('GET', 'auth/whoami')).body.result._id as string;
    await expect(page.getByRole('link', { name: /On call: Team e2e/ }).count()).resolves.toBe(0);
    await page.goto('/oncall');
    await shown(page.getByRole('table', { name: 'On-call schedules' }).getByRole('row', { name: /Team e2e/ }));
    // Another session's change, with this page left open: the live stream brings it.
    const start = new Date(Date.now() - 60_000).toISOString();
    const end = new Date(Date.now() + 2 * 3_600_000).toISOString();
    expect((await api.call('POST', `oncall-schedules/${scheduleId}/overrides`, { user: adminId, start, end })).status).toBe(201);
    const mine = page.getByRole('banner').getByRole('link', { name: /^On call: Team e2e until / });
    await shown(mine, 5_000);
    await shown(page.getByRole('table', { name: 'On-call schedules' }).getByRole('row', { name: /Team e2e/ }).getByText(/^admin \(override\) until/), 5_000);
    await mine.click();
    await shown(page.getByRole('heading', { name: /Team e2e/, level: 1 }));
  });

  it('a schedule with nobody on call some time in the next 7 days is named on the dashboard, and its screen says when', async () => {
    const { page } = admin;
    const made = await api.call('POST', 'oncall-schedules', { name: 'Gaps e2e', timeZone: 'UTC', layers: [{ name: 'office', participants: [ids['oc-ana']], shift: { length: 1, unit: 'weeks' }, start: '2026-01-05', handoff: '09:00', restrictions: [{ type: 'daily', from: '09:00', to: '18:00' }] }] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.result._id as string;
    try {
      const first = (await api.call('GET', `oncall/gaps?schedule=${id}`)).body.result[0].gaps[0] as { start: string; end: string };
      await page.goto('/');
      const notice = page.getByRole('region', { name: 'Nobody on call' });
      await shown(notice.getByText(/has nobody on call/));
      // The schedule always covered is not named.
      await expect(notice.getByRole('link', { name: 'Team e2e' }).count()).resolves.toBe(0);
      await notice.getByRole('link', { name: 'Gaps e2e' }).click();
      await shown(page.getByRole('heading', { name: /Gaps e2e/, level: 1 }));
      const warning = page.getByRole('region', { name: 'Nobody on call' });
      await shown(warning.getByRole('heading', { name: 'Nobody on call in the next 7 days' }));
      // When the first gap is, in the reader's own zone, as the timeline says it.
      const text = await page.evaluate(({ start, end }) => {
        const when = (iso: string) => new Date(iso).toLocaleString(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
        return `${when(start)} – ${when(end)}`;
      }, first);
      await shown(warning.getByRole('listitem').filter({ hasText: text }));
    } finally {
      expect((await api.call('DELETE', `oncall-schedules/${id}`)).status).toBe(200);
    }
  });
});
