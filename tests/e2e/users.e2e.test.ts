import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commandLine, gone, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

const baseURL = inject('baseURL');

describe('users', () => {
  let b: Browser;
  let admin: Awaited<ReturnType<typeof apiSession>>;
  beforeAll(async () => {
    admin = await apiSession(baseURL);
    b = await openBrowser(baseURL);
    await signIn(b.page);
  });
  afterAll(async () => b.close());

  it('creates, edits and deletes a user with the mouse', async () => {
    const { page } = b;
    await page.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL((u) => u.pathname === '/users');
    await page.getByRole('link', { name: 'Add new user' }).click();
    const modal = page.getByRole('dialog', { name: 'Add new User' });
    await shown(modal);
    await modal.getByPlaceholder('Please enter User name').fill('mouse');
    await modal.getByPlaceholder('Please enter User Email').fill('mouse@example.com');
    await modal.getByPlaceholder('Please enter Phonenumber').fill('+1 555 0101');
    await modal.getByPlaceholder('Please enter Password').fill('mouse-password');
    await modal.getByRole('button', { name: /Please slect Role|Role/ }).click();
    await page.getByRole('option', { name: 'sysadmin' }).click();
    await modal.getByRole('button', { name: /create|save|submit/i }).click();
    await gone(modal);
    await shown(page.getByRole('cell', { name: 'mouse@example.com' }));
    expect(await admin.findUserByEmail('mouse@example.com')).toMatchObject({ username: 'mouse', role: 'sysadmin', phonenumber: '+1 555 0101' });

    // The detail drawer: edit the email row, then delete with the confirmation.
    await page.getByRole('link', { name: 'mouse', exact: true }).click();
    await page.waitForURL(/\/users\/show\//);
    const drawer = page.getByRole('dialog');
    await shown(drawer.getByText('Created on'));
    await drawer.getByRole('button', { name: 'Edit Email' }).click();
    // Exactly: an admin's drawer also holds the person's contact methods, with an Email address field.
    await drawer.getByRole('textbox', { name: 'Email', exact: true }).fill('mouse2@example.com');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await admin.findUserByEmail('mouse2@example.com'))?.username).toBe('mouse');
    await drawer.getByRole('button', { name: 'Delete User' }).click();
    const confirm = page.getByRole('alertdialog');
    await shown(confirm.getByText('Are you sure to delete this user?'));
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await page.waitForURL((u) => u.pathname === '/users');
    await expect.poll(async () => await admin.findUserByEmail('mouse2@example.com')).toBeUndefined();
  });

  it('keeps list state in the URL and filters by search', async () => {
    const { page } = b;
    await admin.createUser({ username: 'zed-searchable', email: 'zed@example.com' });
    await page.goto('/users');
    await page.getByPlaceholder('Search by name').fill('zed-search');
    await page.waitForURL(/search=zed-search/);
    await shown(page.getByRole('cell', { name: 'zed@example.com' }));
    await gone(page.getByRole('cell', { name: /@opsdeck\.test/ }));
    await page.reload();
    await shown(page.getByRole('cell', { name: 'zed@example.com' }));
  });

  it('runs the list commands from its controls: search, column filters, sort, view and page size, and the palette finds them', async () => {
    const { page } = b;
    await admin.createUser({ username: 'yak-listed', email: 'yak@example.net' });
    await page.goto('/users?view=table');
    // The search box runs list.search through the gate: text it refuses is said, and the list stays.
    await page.getByPlaceholder('Search by name').fill('y'.repeat(501));
    await shown(page.getByTestId('notice').getByText(/^Search this list: Search text/));
    expect(new URL(page.url()).searchParams.get('search')).toBeNull();
    await page.getByPlaceholder('Search by name').fill('yak');
    await page.waitForURL((u) => u.searchParams.get('search') === 'yak' && u.searchParams.get('view') === 'table');
    await shown(page.getByRole('cell', { name: 'yak@example.net' }));
    // A column filter runs list.filter; clearing the search keeps it.
    await page.getByPlaceholder('Search by name').fill('');
    await page.waitForURL((u) => !u.searchParams.has('search'));
    await page.getByPlaceholder('Search Email').fill('example.net');
    await page.waitForURL((u) => u.searchParams.get('email') === 'example.net');
    await shown(page.getByRole('cell', { name: 'yak@example.net' }));
    await gone(page.getByRole('cell', { name: /@opsdeck\.test/ }));
    // A header runs list.sort (again: the other way), the switch view.cards, the pager list.page-size.
    await page.getByRole('button', { name: 'Sort by Email' }).click();
    await page.waitForURL((u) => u.searchParams.get('sortBy') === 'email' && u.searchParams.get('sortDir') === 'asc' && u.searchParams.get('email') === 'example.net');
    await page.getByRole('button', { name: 'Sort by Email' }).click();
    await page.waitForURL((u) => u.searchParams.get('sortDir') === 'desc');
    await page.getByRole('button', { name: 'Cards' }).click();
    await page.waitForURL((u) => u.searchParams.get('view') === 'cards' && u.searchParams.get('email') === 'example.net');
    await shown(page.getByRole('article').filter({ hasText: 'yak-listed' }));
    await page.getByRole('button', { name: /Page size/ }).click();
    await page.getByRole('option', { name: '50 / page' }).click();
    await page.waitForURL((u) => u.searchParams.get('pageSize') === '50' && u.searchParams.get('view') === 'cards');
    // The command line's list.filter shows in the screen's own filter box.
    await commandLine(page, 'view.table');
    await commandLine(page, 'list.filter role "system"');
    await page.waitForURL((u) => u.searchParams.get('role') === 'system' && u.searchParams.get('view') === 'table');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByPlaceholder('Search Role').inputValue()).toBe('system');
    // The palette finds the list commands on this screen.
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox');
    await input.fill('filter this list');
    await shown(page.getByRole('option', { name: /Filter this list/ }));
    await input.fill('clear search and filters');
    await shown(page.getByRole('option', { name: /Clear search and filters/ }));
    await input.press('Enter');
    await page.waitForURL((u) => !u.searchParams.has('role') && !u.searchParams.has('email') && u.searchParams.get('view') === 'table');
  });

  it('creates and deletes a user from the palette', async () => {
    const { page } = b;
    await page.goto('/users');
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox');
    await shown(input);
    await input.fill('Create user');
    await input.press('Enter');
    for (const value of ['palette', 'palette@example.com', '+1 555 0102', 'palette-password']) {
      await page.keyboard.type(value);
      await page.keyboard.press('Enter');
    }
    await input.fill('User');
    await page.getByRole('option', { name: /^User/ }).click();
    await expect.poll(async () => (await admin.findUserByEmail('palette@example.com'))?.role).toBe('user');

    // Edit: the user argument is picked from an entity search, the value typed.
    await page.keyboard.press('Control+k');
    await input.fill('Set user phone number');
    await input.press('Enter');
    await input.fill('palette');
    await shown(page.getByRole('option', { name: /palette/ }));
    await input.press('Enter');
    await page.keyboard.type('+1 555 0199');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await admin.findUserByEmail('palette@example.com'))?.phonenumber).toBe('+1 555 0199');

    await page.keyboard.press('Control+k');
    await input.fill('Delete user');
    await input.press('Enter');
    await input.fill('palette');
    await shown(page.getByRole('option', { name: /palette/ }));
    await input.press('Enter');
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await expect.poll(async () => await admin.findUserByEmail('palette@example.com')).toBeUndefined();
    // The API answers before the browser has read the reply and sent the run's history record:
    // the next test's navigation must not cut that short, so wait for the run's closing notice.
    await shown(page.getByRole('status').getByText(/Deleted user/));
  });

  it('creates, edits and deletes a user from the command line', async () => {
    const { page } = b;
    await page.goto('/users');
    await commandLine(page, 'user.create --username cli --email cli@example.com --phonenumber "+1 555 0103" --password cli-password --role sysadmin');
    await shown(page.getByText(/Created user/));
    expect(await admin.findUserByEmail('cli@example.com')).toMatchObject({ username: 'cli', role: 'sysadmin' });
    const input = page.getByRole('textbox', { name: 'Command line' });
    // Another role ends cli's session and API token (issue 25 §4), and the notice says so.
    const cli = await apiSession(baseURL, 'cli@example.com', 'cli-password');
    expect((await cli.call('POST', 'auth/tokens', { name: 'ci' })).status).toBe(201);
    await input.fill('user.set-role cli --role user');
    await input.press('Enter');
    await expect.poll(async () => (await admin.findUserByEmail('cli@example.com'))?.role).toBe('user');
    await shown(page.getByText(/Their access ended: 1 session signed out and 1 personal API token revoked/));
    expect((await cli.call('GET', 'auth/whoami')).status).toBe(401);
    await input.fill('user.delete cli');
    await input.press('Enter');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
    await expect.poll(async () => await admin.findUserByEmail('cli@example.com')).toBeUndefined();
    await input.fill('user.delete nobody-here');
    await input.press('Enter');
    await shown(page.getByText('No user matches "nobody-here"'));
  });

  it('records every command in the shared history with its source', async () => {
    const expected = ['user.create:ui:ok', 'user.set-email:ui:ok', 'user.delete:ui:ok', 'user.create:palette:ok', 'user.set-phone:palette:ok', 'user.delete:palette:ok', 'user.create:cmdline:ok', 'user.set-role:cmdline:ok', 'user.delete:cmdline:ok'];
    // A run records itself after its effect shows, so the newest record may still be on its way.
    await expect.poll(() => admin.historyMissing(['user.create', 'user.delete', 'user.set-email', 'user.set-phone', 'user.set-role'], expected), { timeout: 15_000 }).toEqual([]);
    // `user.delete nobody-here` ended before any call ("No user matches"): History holds nothing of it (issue 25 §3).
    expect(await admin.historyMissing(['user.delete'], ['user.delete:cmdline:error'])).toEqual(['user.delete:cmdline:error']);
    // And it is visible in the History panel.
    await b.page.keyboard.press('Escape');
    await b.page.keyboard.press('Alt+h');
    await shown(b.page.getByRole('dialog', { name: /history/i }).getByText('user.set-role').first());
  });
});
