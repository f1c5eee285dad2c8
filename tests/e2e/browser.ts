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

/**
 * Waits until the page has fetched nothing new for `quietMs` (lazy chunks, queries, fonts).
 * Playwright's 'networkidle' never comes for a signed-in tab: its live stream stays open. A
 * resource timing entry is written when a response ends, so the open stream never counts.
 */
export async function settled(page: Page, quietMs = 500, timeout = 20_000): Promise<void> {
  await page.waitForFunction(
    (quiet) => {
      const w = window as unknown as { __settled?: { n: number; at: number } };
      // The default buffer stops at 250 entries; a longer walk would look quiet.
      if (!w.__settled) performance.setResourceTimingBufferSize(100_000);
      const n = performance.getEntriesByType('resource').length;
      const now = performance.now();
      if (!w.__settled || w.__settled.n !== n) w.__settled = { n, at: now };
      return now - w.__settled.at >= quiet;
    },
    quietMs,
    { timeout, polling: 100 },
  );
}

/** Waits until the locator is gone or hidden. */
export async function gone(locator: import('playwright-core').Locator, timeout = 15_000): Promise<void> {
  await locator.first().waitFor({ state: 'hidden', timeout });
}

/**
 * Runs one line on the command line, as a person does: when it is not open, close what is
 * (Escape), put the focus on the page and open it with ':'; when it is open, type into it again,
 * so the output of earlier lines stays above.
 */
export async function commandLine(page: Page, line: string): Promise<void> {
  const input = page.getByRole('textbox', { name: 'Command line' });
  if (!(await input.isVisible())) {
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Escape');
    await page.keyboard.type(':');
    await shown(input);
  }
  await input.fill(line);
  await input.press('Enter');
}

/** Opens the palette with Ctrl+K; its search field (a page may have a combobox of its own). */
export async function openPalette(page: Page): Promise<import('playwright-core').Locator> {
  await page.keyboard.press('Control+k');
  const input = page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox');
  await shown(input);
  return input;
}

/**
 * Runs a command from the palette as a person does: finds it by title, then answers each step
 * (an entity's name, an option's label) with Enter.
 */
export async function runFromPalette(page: Page, title: string, answers: string[]): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+k');
  // Its name follows the argument it asks for, so find it by its place: the palette's dialog.
  const input = page.getByRole('dialog').getByRole('combobox');
  await shown(input);
  await input.fill(title);
  await shown(page.getByRole('option', { name: new RegExp(title) }));
  await input.press('Enter');
  for (const answer of answers) {
    await input.fill(answer);
    if (answer) await shown(page.getByRole('option', { name: new RegExp(answer) }));
    await input.press('Enter');
  }
}
