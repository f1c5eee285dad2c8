import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { ADMIN } from './server-process';

const baseURL = inject('baseURL');

describe('session', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await openBrowser(baseURL);
  });
  afterAll(async () => b.close());

  it('sends a visitor without a session to /session-expired', async () => {
    await b.page.goto('/users');
    await b.page.waitForURL('**/session-expired');
    await shown(b.page.getByText('Session Expired. Kindly try to log in through the portal.'));
  });

  it('refuses a wrong password with a message and signs in with the right one', async () => {
    await b.page.goto('/login');
    await b.page.getByLabel(/email/i).fill(ADMIN.email);
    await b.page.getByLabel(/password/i).fill('wrong-password');
    await b.page.getByRole('button', { name: /sign in/i }).click();
    await shown(b.page.getByText('Invalid email or password'));
    await signIn(b.page);
    const stored = await b.page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    expect(stored).toMatchObject({ email: ADMIN.email, username: ADMIN.username });
    // A signed-in user opening a public route goes to the dashboard.
    await b.page.goto('/session-expired');
    await b.page.waitForURL((u) => u.pathname === '/');
  });

  it('shows the not-found page for an unknown path', async () => {
    await b.page.goto('/no/such/page');
    await shown(b.page.getByText(/not found/i).first());
  });

  it('keeps dark mode across a reload', async () => {
    await b.page.goto('/');
    expect(await b.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    await b.page.locator('label', { hasText: 'Dark Mode' }).click();
    expect(await b.page.evaluate(() => localStorage.getItem('colorMode'))).toBe('dark');
    await b.page.reload();
    expect(await b.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await b.page.locator('label', { hasText: 'Dark Mode' }).click();
    expect(await b.page.evaluate(() => localStorage.getItem('colorMode'))).toBe('light');
  });

  it('follows the system preference when no colour mode was chosen', async () => {
    const dark = await openBrowser(baseURL, { colorScheme: 'dark' });
    try {
      await signIn(dark.page);
      expect(await dark.page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      expect(await dark.page.getByRole('switch', { name: /dark mode/i }).isChecked()).toBe(true);
      expect(await dark.page.evaluate(() => localStorage.getItem('colorMode'))).toBeNull();
    } finally {
      await dark.close();
    }
  });

  it('goes to /logout when the session ends on the server (401)', async () => {
    await b.page.goto('/users');
    await shown(b.page.getByRole('heading', { name: 'Users' }));
    // End this browser's session behind its back, then make the app call the API.
    const cookie = (await b.context.cookies()).find((c) => c.name === 'opsdeck_session')!;
    await fetch(`${baseURL}/api/auth/signout`, { method: 'POST', headers: { cookie: `${cookie.name}=${cookie.value}`, 'x-requested-with': 'opsdeck' } });
    // A Refresh makes it call the API; the open live stream may meet the 401 first, and then the
    // app has already left the page the button was on: either way it lands on /logout.
    const click = b.page.getByRole('button', { name: /refresh/i }).first().click().catch(() => undefined);
    await Promise.race([click, b.page.waitForURL('**/logout')]);
    await b.page.waitForURL('**/logout');
    await shown(b.page.getByText('You are now logged out. Kindly log in again from the portal'));
    expect(await b.page.evaluate(() => localStorage.getItem('user'))).toBeNull();
  });

  it('logs out with the Logout button', async () => {
    await signIn(b.page);
    await b.page.getByRole('button', { name: 'Logout' }).click();
    await b.page.waitForURL('**/logout');
    await shown(b.page.getByText('You are now logged out. Kindly log in again from the portal'));
    expect(await b.page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    // The session is gone on the server too.
    await b.page.goto('/');
    await b.page.waitForURL('**/session-expired');
  });

  it('lets a user rename their account in Account Settings', async () => {
    const admin = await apiSession(baseURL);
    await admin.createUser({ username: 'renamer', email: 'renamer@example.com', password: 'renamer-pw', role: 'user' });
    await signIn(b.page, 'renamer@example.com', 'renamer-pw');
    await b.page.getByRole('button', { name: 'renamer' }).click();
    const drawer = b.page.getByRole('dialog', { name: 'Account Settings' });
    await shown(drawer.getByText('Security'));
    expect(await drawer.getByRole('textbox', { name: 'Email', exact: true }).isDisabled()).toBe(true);
    await drawer.getByRole('textbox', { name: /user ?name/i }).fill('renamed');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await admin.findUserByEmail('renamer@example.com'))?.username).toBe('renamed');
    // A plain user sees no Users menu item.
    expect(await b.page.getByRole('link', { name: 'Users' }).count()).toBe(0);
  });
});
