import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commandLine, gone, openBrowser, openPalette, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

/**
 * Notification Groups (SPEC §2, §4, §5): the list, the 756 px drawers with the email tag input,
 * the delete confirmation, the same actions from the command line and the palette, and what the
 * user role may not do. Against the shared server; every group here is named "E2E …".
 */
const baseURL = inject('baseURL');
type Session = Awaited<ReturnType<typeof apiSession>>;
interface Group {
  _id: string;
  name: string;
  description: string;
  emailEnabled: boolean;
  emailList: string[];
  slackEnabled: boolean;
  slackChannel: string | null;
}

async function findGroup(admin: Session, name: string): Promise<Group | undefined> {
  const r = await admin.call<{ result: { data: Group[] } }>('POST', 'notification-groups/all', { pageNumber: 1, pageSize: 10, filter: { name: { eq: name } } });
  return r.body.result.data[0];
}
const createGroup = (admin: Session, body: Partial<Group> & { name: string }) => admin.call<{ result: Group }>('POST', 'notification-groups', body).then((r) => r.body.result);

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
const tags = (drawer: Locator) => drawer.getByRole('list', { name: 'Email List' }).getByRole('listitem');
const tagTexts = async (drawer: Locator) => (await tags(drawer).allTextContents()).map((t) => t.replace('✕', '').trim());

describe('notification groups', () => {
  let b: Browser;
  let admin: Session;
  beforeAll(async () => {
    admin = await apiSession(baseURL);
    b = await openBrowser(baseURL);
    await signIn(b.page);
  });
  afterAll(async () => b?.close());

  it('creates a group with the mouse: name and Slack channel checks, emails added by Enter and by the Enter button, one removed', async () => {
    const { page } = b;
    await page.getByRole('link', { name: 'Notification Groups' }).click();
    await page.waitForURL((u) => u.pathname === '/notification-groups');
    await shown(page.getByRole('heading', { name: 'Notification Groups', level: 1 }));
    // .first(): the header's link; an empty list (this file may run first) also offers one in its empty state.
    await page.getByRole('link', { name: 'Create Notification Group' }).first().click();
    await page.waitForURL((u) => u.pathname === '/notification-groups/create');
    const drawer = page.getByRole('dialog', { name: 'Create Notification Group' });
    await shown(drawer);
    // SPEC §9: 756 px, over the list (which stays rendered behind it).
    expect((await drawer.boundingBox())!.width).toBe(756);
    await shown(page.getByRole('heading', { name: 'Notification Groups', level: 1 }));
    // SPEC §5 defaults: email on, Slack off.
    const emailSwitch = drawer.getByRole('switch', { name: 'Email Enabled' });
    const slackSwitch = drawer.getByRole('switch', { name: 'Slack Enabled' });
    expect(await emailSwitch.isChecked()).toBe(true);
    expect(await slackSwitch.isChecked()).toBe(false);

    await drawer.getByRole('button', { name: 'Create', exact: true }).click();
    await shown(drawer.getByText('Please enter notification group name'));
    await drawer.getByRole('textbox', { name: 'Name' }).fill('E2E Mouse Team');
    await gone(drawer.getByText('Please enter notification group name'));

    const input = drawer.getByRole('textbox', { name: 'Email List' });
    const enter = drawer.getByRole('button', { name: 'Enter', exact: true });
    // Empty input: the button is off and Enter neither adds nor submits the form.
    expect(await enter.isDisabled()).toBe(true);
    await input.press('Enter');
    expect(await tags(drawer).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/notification-groups/create');

    await input.fill('ann@example.com');
    await input.press('Enter');
    await expect.poll(() => tagTexts(drawer)).toEqual(['ann@example.com']);
    expect(await input.inputValue()).toBe('');
    await input.fill('bob@example.com');
    expect(await enter.isDisabled()).toBe(false);
    await enter.click();
    await expect.poll(() => tagTexts(drawer)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(await input.inputValue()).toBe('');
    // A duplicate is ignored (case-insensitively) and the input clears.
    await input.fill('ANN@example.com');
    await input.press('Enter');
    await expect.poll(() => input.inputValue()).toBe('');
    expect(await tagTexts(drawer)).toEqual(['ann@example.com', 'bob@example.com']);
    // Not an address: said next to the field, kept in the input to fix.
    await input.fill('nope');
    await input.press('Enter');
    await shown(drawer.getByText('"nope" is not an email address like name@example.com'));
    expect(await input.inputValue()).toBe('nope');
    await input.fill('carol@example.com');
    await input.press('Enter');
    await drawer.getByRole('button', { name: 'Remove ann@example.com' }).click();
    await expect.poll(() => tagTexts(drawer)).toEqual(['bob@example.com', 'carol@example.com']);

    // SPEC §5: a Slack channel only when Slack is on.
    await drawer.getByText('Slack Enabled').click();
    expect(await slackSwitch.isChecked()).toBe(true);
    await drawer.getByRole('button', { name: 'Create', exact: true }).click();
    await shown(drawer.getByText('Please enter a Slack channel'));
    expect(await findGroup(admin, 'E2E Mouse Team')).toBeUndefined();
    await drawer.getByRole('textbox', { name: 'Slack Channel' }).fill('#e2e-ops');
    await drawer.getByRole('textbox', { name: 'Description' }).fill('Day shift');
    await drawer.getByRole('button', { name: 'Create', exact: true }).click();
    await gone(drawer);
    await page.waitForURL((u) => u.pathname === '/notification-groups');
    expect(await findGroup(admin, 'E2E Mouse Team')).toMatchObject({
      description: 'Day shift',
      emailEnabled: true,
      emailList: ['bob@example.com', 'carol@example.com'],
      slackEnabled: true,
      slackChannel: '#e2e-ops',
    });
    // The row: read-only switches and avatars named by their address.
    const r = row(page, 'E2E Mouse Team');
    await shown(r);
    await shown(r.getByText('Day shift'));
    expect(await r.getByRole('switch', { name: 'Email enabled for E2E Mouse Team' }).isChecked()).toBe(true);
    expect(await r.getByRole('switch', { name: 'Slack enabled for E2E Mouse Team' }).isChecked()).toBe(true);
    // Read-only: a click changes nothing.
    await r.getByRole('switch', { name: 'Slack enabled for E2E Mouse Team' }).locator('xpath=ancestor::label').click();
    expect(await r.getByRole('switch', { name: 'Slack enabled for E2E Mouse Team' }).isChecked()).toBe(true);
    expect(await r.getByRole('img', { name: 'bob@example.com' }).textContent()).toBe('BO');
    expect(await r.getByRole('img', { name: 'bob@example.com' }).getAttribute('title')).toBe('bob@example.com');
  });

  it('lists SPEC’s columns, avatars with a +n overflow, a debounced name search in the URL, and page sizes', async () => {
    const { page } = b;
    await createGroup(admin, { name: 'E2E Many', emailList: ['a.one@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com'], emailEnabled: false });
    await page.goto('/notification-groups');
    const table = page.getByRole('table', { name: 'Notification Groups' });
    await shown(row(page, 'E2E Many'));
    const headers = (await table.getByRole('columnheader').allTextContents()).map((t) => t.replace(/[↕▲▼]/g, '').trim());
    expect(headers).toEqual(['Name', 'Description', 'Email Enabled', 'Email List', 'Slack Enabled', 'Created At', 'Updated At', 'Actions']);
    const many = row(page, 'E2E Many');
    expect(await many.getByRole('switch', { name: 'Email enabled for E2E Many' }).isChecked()).toBe(false);
    expect(await many.getByRole('img').count()).toBe(4);
    expect(await many.getByRole('img', { name: 'a.one@example.com' }).textContent()).toBe('AO');
    const more = many.getByRole('img', { name: '2 more: d@example.com, e@example.com' });
    expect(await more.textContent()).toBe('+2');

    const t0 = Date.now();
    await page.getByPlaceholder('Search by name').fill('many');
    if (Date.now() - t0 < 400) expect(page.url()).not.toContain('name=');
    await page.waitForURL(/name=many/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    await gone(row(page, 'E2E Mouse Team'));
    expect(await table.getByRole('row').count()).toBe(2);
    await page.reload();
    await shown(row(page, 'E2E Many'));
    await page.getByPlaceholder('Search by name').fill('zzz-nothing');
    await shown(page.getByText('No notification groups match “zzz-nothing”.'));
    await page.getByRole('button', { name: 'Clear search' }).click();
    await shown(row(page, 'E2E Mouse Team'));

    // SPEC §9: 25 by default, 25/50/75/100; the choice is in the URL.
    await page.getByRole('button', { name: /Page size/ }).click();
    for (const n of [25, 50, 75, 100]) await shown(page.getByRole('option', { name: `${n} / page` }));
    await page.getByRole('option', { name: '50 / page' }).click();
    await page.waitForURL(/pageSize=50/);
  });

  it('updates a group in its drawer, warns about unsaved changes, and returns to the list when the group cannot be loaded', async () => {
    const { page } = b;
    await page.goto('/notification-groups');
    await row(page, 'E2E Mouse Team').getByRole('button', { name: 'Edit E2E Mouse Team' }).click();
    const drawer = page.getByRole('dialog', { name: 'Update Notification Group' });
    await shown(drawer);
    const opened = await drawer.elementHandle();
    const name = drawer.getByRole('textbox', { name: 'Name' });
    await expect.poll(() => name.inputValue()).toBe('E2E Mouse Team');
    // The group filled the drawer that opened: no second drawer once it loaded.
    expect(await opened!.evaluate((el) => el.isConnected)).toBe(true);
    expect((await drawer.boundingBox())!.width).toBe(756);
    expect(await tagTexts(drawer)).toEqual(['bob@example.com', 'carol@example.com']);
    expect(await drawer.getByRole('switch', { name: 'Slack Enabled' }).isChecked()).toBe(true);

    // Leaving with a change asks; "stay" keeps the drawer and the edit.
    await drawer.getByRole('textbox', { name: 'Description' }).fill('Night shift');
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.dismiss();
    });
    await drawer.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => asked).toBe('You have unsaved changes. Leave anyway?');
    await shown(drawer);
    expect(await drawer.getByRole('textbox', { name: 'Description' }).inputValue()).toBe('Night shift');

    await drawer.getByRole('textbox', { name: 'Email List' }).fill('dave@example.com');
    await drawer.getByRole('textbox', { name: 'Email List' }).press('Enter');
    await drawer.getByRole('button', { name: 'Remove bob@example.com' }).click();
    await drawer.getByText('Slack Enabled').click();
    await drawer.getByRole('button', { name: 'Update', exact: true }).click();
    await gone(drawer);
    await page.waitForURL((u) => u.pathname === '/notification-groups');
    expect(await findGroup(admin, 'E2E Mouse Team')).toMatchObject({ description: 'Night shift', emailList: ['carol@example.com', 'dave@example.com'], slackEnabled: false, slackChannel: '#e2e-ops' });
    await shown(row(page, 'E2E Mouse Team').getByText('Night shift'));

    // A name taken by another group: the server's 409 lands on the Name field.
    await row(page, 'E2E Mouse Team').getByRole('button', { name: 'Edit E2E Mouse Team' }).click();
    await shown(drawer);
    await expect.poll(() => name.inputValue()).toBe('E2E Mouse Team');
    await name.fill('e2e many');
    await drawer.getByRole('button', { name: 'Update', exact: true }).click();
    await shown(drawer.getByText('A notification group named "e2e many" already exists'));
    page.once('dialog', (d) => void d.accept());
    await drawer.getByRole('button', { name: 'Close' }).click();
    await gone(drawer);

    await page.goto('/notification-groups/edit/00000000-0000-4000-8000-0000000000ff');
    await page.waitForURL((u) => u.pathname === '/notification-groups');
    await shown(page.getByText(/Could not load the notification group/));
  });

  it('deletes a group after SPEC’s confirmation; Cancel or a failed delete keeps it', async () => {
    const { page } = b;
    await page.goto('/notification-groups');
    const group = (await findGroup(admin, 'E2E Mouse Team'))!;
    await row(page, 'E2E Mouse Team').getByRole('button', { name: 'Delete E2E Mouse Team' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete Notification Group' });
    await shown(dialog.getByText('Are you sure you want to delete the group?'));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await gone(dialog);
    expect(await findGroup(admin, 'E2E Mouse Team')).toBeDefined();
    // A failed delete says why and keeps the row.
    const one = '**/api/notification-groups/*';
    await page.route(one, (route) => (route.request().method() === 'DELETE' ? route.fulfill({ status: 500, json: { message: 'database unavailable' } }) : route.continue()));
    await row(page, 'E2E Mouse Team').getByRole('button', { name: 'Delete E2E Mouse Team' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await shown(page.getByText('database unavailable'));
    await shown(row(page, 'E2E Mouse Team'));
    await page.unroute(one);

    await row(page, 'E2E Mouse Team').getByRole('button', { name: 'Delete E2E Mouse Team' }).click();
    const remove = dialog.getByRole('button', { name: 'Delete', exact: true });
    expect(await remove.getAttribute('class')).toContain('bg-red-600');
    await remove.click();
    await gone(dialog);
    await gone(row(page, 'E2E Mouse Team'));
    expect((await admin.call('GET', `notification-groups/${group._id}`)).status).toBe(404);

    // From the read view: after the delete the drawer of the deleted group does not linger.
    const doomed = await createGroup(admin, { name: 'E2E Doomed' });
    await page.goto(`/notification-groups/show/${doomed._id}`);
    const view = page.getByRole('dialog', { name: 'E2E Doomed' });
    await view.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/notification-groups');
    await gone(view);
    expect(await findGroup(admin, 'E2E Doomed')).toBeUndefined();
  });

  it('does the same from the command line', async () => {
    const { page } = b;
    await page.goto('/notification-groups');
    await commandLine(page, 'group.create --name "E2E CLI" --emails "x@example.com, y@example.com"');
    await shown(page.getByText(/Created notification group/));
    await shown(row(page, 'E2E CLI'));
    expect(await findGroup(admin, 'E2E CLI')).toMatchObject({ emailEnabled: true, slackEnabled: false, emailList: ['x@example.com', 'y@example.com'] });
    await commandLine(page, 'group.create --name "E2E Slack" --slackEnabled');
    await shown(page.getByText(/Please enter a Slack channel/));
    expect(await findGroup(admin, 'E2E Slack')).toBeUndefined();

    await commandLine(page, 'group.add-email "E2E CLI" z@example.com');
    await expect.poll(async () => (await findGroup(admin, 'E2E CLI'))?.emailList).toEqual(['x@example.com', 'y@example.com', 'z@example.com']);
    await commandLine(page, 'group.remove-email "e2e cli" x@example.com');
    await expect.poll(async () => (await findGroup(admin, 'E2E CLI'))?.emailList).toEqual(['y@example.com', 'z@example.com']);
    await commandLine(page, 'group.edit "E2E CLI" --slackEnabled --slackChannel "#cli"');
    await expect.poll(async () => (await findGroup(admin, 'E2E CLI'))?.slackChannel).toBe('#cli');

    const cli = (await findGroup(admin, 'E2E CLI'))!;
    await commandLine(page, 'group.show "E2E CLI"');
    await page.waitForURL((u) => u.pathname === `/notification-groups/show/${cli._id}`);
    const view = page.getByRole('dialog', { name: 'E2E CLI' });
    await shown(view.getByRole('list', { name: 'Email addresses' }).getByText('z@example.com'));
    await shown(view.getByText('#cli'));
    await view.getByRole('button', { name: 'Edit' }).click();
    await page.waitForURL((u) => u.pathname === `/notification-groups/edit/${cli._id}`);
    // Nothing changed: Escape closes it without asking (the command line is inert under a drawer).
    await shown(page.getByRole('dialog', { name: 'Update Notification Group' }).getByRole('listitem').first());
    await page.keyboard.press('Escape');
    await page.waitForURL((u) => u.pathname === '/notification-groups');

    await commandLine(page, 'group.delete "E2E CLI"');
    const dialog = page.getByRole('alertdialog', { name: 'Delete Notification Group' });
    await shown(dialog.getByText('Are you sure you want to delete the group?'));
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(async () => await findGroup(admin, 'E2E CLI')).toBeUndefined();
    await gone(row(page, 'E2E CLI'));
    await commandLine(page, 'group.delete "E2E CLI"');
    await shown(page.getByText('No group matches "E2E CLI"'));
    await page.keyboard.press('Escape');
  });

  it('does the same from the palette, where groups are entities', async () => {
    const { page } = b;
    await page.goto('/notification-groups');
    let input = await openPalette(page);
    await input.fill('Create notification group');
    await input.press('Enter');
    await page.keyboard.type('E2E Palette');
    await page.keyboard.press('Enter'); // name
    await page.keyboard.press('Enter'); // description: none
    await page.keyboard.type('pal@example.com, ette@example.com');
    await page.keyboard.press('Enter'); // emails
    await page.keyboard.press('Enter'); // email enabled: (skip)
    await page.keyboard.press('Enter'); // slack enabled: (skip)
    await page.keyboard.press('Enter'); // slack channel: none
    await expect.poll(async () => (await findGroup(admin, 'E2E Palette'))?.emailList).toEqual(['pal@example.com', 'ette@example.com']);
    const pal = (await findGroup(admin, 'E2E Palette'))!;

    input = await openPalette(page);
    await input.fill('E2E Palette');
    await shown(page.getByRole('option', { name: /E2E Palette/ }));
    await input.press('Enter');
    await page.waitForURL((u) => u.pathname === `/notification-groups/show/${pal._id}`);
    await shown(page.getByRole('dialog', { name: 'E2E Palette' }));
    await page.keyboard.press('Escape');
    await page.waitForURL((u) => u.pathname === '/notification-groups');

    input = await openPalette(page);
    await input.fill('Add email to notification group');
    await input.press('Enter');
    await input.fill('E2E Pal');
    await shown(page.getByRole('option', { name: /E2E Palette/ }));
    await input.press('Enter');
    await page.keyboard.type('third@example.com');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await findGroup(admin, 'E2E Palette'))?.emailList).toContain('third@example.com');

    input = await openPalette(page);
    await input.fill('Delete notification group');
    await input.press('Enter');
    await input.fill('E2E Pal');
    await shown(page.getByRole('option', { name: /E2E Palette/ }));
    await input.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Delete Notification Group' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(async () => await findGroup(admin, 'E2E Palette')).toBeUndefined();
    // The run's history record follows the browser's reading of the reply: wait for its notice.
    await shown(page.getByRole('status').getByText(/Deleted notification group/));
  });

  it('records the screen’s, command line’s and palette’s runs in the shared history', async () => {
    const expected = [
      'group.create:ui:ok',
      'group.edit:ui:ok',
      'group.edit:ui:error',
      'group.delete:ui:ok',
      'group.create:cmdline:ok',
      'group.add-email:cmdline:ok',
      'group.remove-email:cmdline:ok',
      'group.delete:cmdline:ok',
      'group.create:palette:ok',
      'group.add-email:palette:ok',
      'group.delete:palette:ok',
    ];
    // A run records itself after its effect shows, so the newest record may still be on its way.
    await expect.poll(() => admin.historyMissing(['group.create', 'group.edit', 'group.delete', 'group.add-email', 'group.remove-email'], expected), { timeout: 15_000 }).toEqual([]);
    // Runs that ended before any call (a cancelled delete, a create without its Slack channel, a
    // delete of no such group) changed nothing on the server: History holds none of them (issue 25 §3).
    expect(await admin.historyMissing(['group.create', 'group.delete'], ['group.delete:ui:cancelled', 'group.create:cmdline:refused', 'group.delete:cmdline:error'])).toHaveLength(3);
  });

  it('shows loading rows, an empty state with a way to create, and a load error with Retry', async () => {
    const { page } = b;
    const list = '**/api/notification-groups/all';
    // The list is held until the loading rows have been seen: a fixed delay (1.5 s) was shorter
    // than the page's own start under load, so the rows had come before the table showed.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(list, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/notification-groups');
    await shown(page.locator('table[aria-busy="true"]'));
    release();
    await shown(row(page, 'E2E Many'));
    expect(await page.locator('table[aria-busy="true"]').count()).toBe(0);
    await page.unroute(list);

    await page.route(list, (route) => route.fulfill({ json: { result: { data: [], count: 0 } } }));
    await page.reload();
    await shown(page.getByRole('heading', { name: 'No notification groups yet' }));
    expect(await page.getByRole('link', { name: 'Create Notification Group' }).count()).toBe(2);
    await page.unroute(list);

    await page.route(list, (route) => route.fulfill({ status: 500, json: { message: 'database unavailable' } }));
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load notification groups.' });
    await shown(alert, 30_000);
    await shown(alert.getByText('database unavailable'));
    await page.unroute(list);
    await alert.getByRole('button', { name: 'Retry' }).click();
    await gone(alert);
    await shown(row(page, 'E2E Many'));
  });

  it('lets the user role read groups but not change them, in dark mode too', async () => {
    await admin.createUser({ username: 'e2e-group-reader', email: 'group-reader@example.com', password: 'reader-password', role: 'user' });
    // Its own group, so this test does not lean on the others.
    const many = (await findGroup(admin, 'E2E Many')) ?? (await createGroup(admin, { name: 'E2E Many', emailList: ['a.one@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com'] }));
    const reader = await openBrowser(baseURL, { colorScheme: 'dark' });
    try {
      const { page } = reader;
      await signIn(page, 'group-reader@example.com', 'reader-password');
      await page.goto('/notification-groups');
      await shown(row(page, 'E2E Many'));
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      // The table is drawn dark, not as white boxes on a dark page.
      const bg = await page.getByRole('table', { name: 'Notification Groups' }).locator('thead').evaluate((el) => getComputedStyle(el).backgroundColor);
      // Tailwind 4 colours compute as oklch(L C H); L is the lightness from 0 to 1.
      expect(bg).toMatch(/^oklch\(/);
      expect(Number(bg.match(/[\d.]+/)![0])).toBeLessThan(0.4);

      const why = 'Only Admin or sysadmin accounts can do this.';
      const create = page.getByRole('link', { name: 'Create Notification Group' }).first();
      expect(await create.getAttribute('aria-disabled')).toBe('true');
      expect(await row(page, 'E2E Many').getByRole('button', { name: 'Edit E2E Many' }).isDisabled()).toBe(true);
      expect(await row(page, 'E2E Many').getByRole('button', { name: 'Delete E2E Many' }).isDisabled()).toBe(true);
      expect(await page.locator(`span[title="${why}"]`).count()).toBeGreaterThan(0);

      // The read view is open to everyone; its Edit and Delete are not.
      await row(page, 'E2E Many').getByRole('link', { name: 'E2E Many' }).click();
      await page.waitForURL((u) => u.pathname === `/notification-groups/show/${many._id}`);
      const view = page.getByRole('dialog', { name: 'E2E Many' });
      await shown(view.getByText('a.one@example.com'));
      expect(await view.getByRole('button', { name: 'Edit' }).isDisabled()).toBe(true);
      expect(await view.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);

      // Typing the drawer's address sends the person back with the reason.
      await page.goto('/notification-groups/create');
      await page.waitForURL((u) => u.pathname === '/notification-groups');
      await shown(page.getByText(why));
      await page.goto(`/notification-groups/edit/${many._id}`);
      await page.waitForURL((u) => u.pathname === '/notification-groups');

      const output = page.getByRole('dialog', { name: 'Command line' });
      await commandLine(page, 'group.delete "E2E Many"');
      await expect.poll(() => output.getByText(why).count()).toBe(1);
      await commandLine(page, 'group.add-email "E2E Many" sneaky@example.com');
      await expect.poll(() => output.getByText(why).count()).toBe(2);
      expect(await findGroup(admin, 'E2E Many')).toMatchObject({ emailList: ['a.one@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com'] });
    } finally {
      await reader.close();
    }
    await admin.call('DELETE', `notification-groups/${many._id}`);
    // A second Chromium starts here: under load that alone can take 10 s or more.
  }, 120_000);
});
