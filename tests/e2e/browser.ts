import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ADMIN } from './server-process';

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

/** A fresh Chromium profile per call (Playwright refuses --user-data-dir in args). */
export async function openBrowser(baseURL: string, options: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {}): Promise<Browser> {
  const dir = mkdtempSync(join(tmpdir(), 'opsdeck-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_FLAGS,
    baseURL,
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1400, height: 900 },
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function signIn(page: Page, email = ADMIN.email, password = ADMIN.password): Promise<void> {
  await page.goto('/login');
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** Waits until the locator is visible (playwright-core has no expect of its own). */
export async function shown(locator: import('playwright-core').Locator, timeout = 15_000): Promise<void> {
  await locator.first().waitFor({ state: 'visible', timeout });
}

/** Waits until the locator is gone or hidden. */
export async function gone(locator: import('playwright-core').Locator, timeout = 15_000): Promise<void> {
  await locator.first().waitFor({ state: 'hidden', timeout });
}
