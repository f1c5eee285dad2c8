import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, openPalette, settled, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { freePort, startServer, type RunningServer } from './server-process';

const baseURL = inject('baseURL');

/**
 * The console under its Content-Security-Policy (issue 11 part 6), in Chromium: every screen,
 * the palette, dark mode and a download work with no violation reported, and the
 * policy really blocks what it should (a foreign script, a foreign frame, being framed).
 */

/** Violations as the page sees them (securitypolicyviolation) and as Chromium logs them. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const logged: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) logged.push(m.text());
  });
  await page.context().addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return async () => [...logged, ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []))];
}

describe('Content-Security-Policy in the browser', () => {
  let b: Browser;
  let violations: () => Promise<string[]>;
  beforeAll(async () => {
    b = await openBrowser(baseURL);
    violations = await watchViolations(b.page);
  });
  afterAll(async () => b.close());

  it('sends the policy, compressed immutable assets and a revalidated index.html', async () => {
    const res = await fetch(`${baseURL}/login`, { headers: { accept: 'text/html', 'accept-encoding': 'br' } });
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    const script = /src="(\/assets\/index-[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(`${baseURL}${script}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // fetch decodes it: the same file as in dist/.
    expect(await asset.text()).toBe(readFileSync(`dist${script}`, 'utf8'));
  });

  it('signs in and walks every screen, the palette, dark mode and a download without a violation', async () => {
    const { page } = b;
    const admin = await apiSession(baseURL);
    const created = await admin.call<{ result: { _id: string } }>('POST', 'servers', { hostname: 'csp-01', ipaddress: '10.77.0.1', operating_system: 'linux' });
    expect(created.status).toBe(201);
    await signIn(page);
    for (const path of ['/', '/servers', `/servers/show/${created.body.result._id}`, '/notifications', '/notification-groups', '/pinned-widgets', '/users', '/checks', '/incident-report', '/no/such/page']) {
      await page.goto(path);
      // The app rendered (its own markup under #root), so its scripts ran. The smallest screen,
      // the not-found page, is five elements (toasts render outside #root).
      await page.waitForFunction(() => document.querySelectorAll('#root *').length >= 5, undefined, { timeout: 20_000 });
      await settled(page);
    }
    // The palette's dialog adds a <style> element (react-remove-scroll).
    await page.goto('/servers');
    const input = await openPalette(page);
    await input.fill('dark');
    await page.keyboard.press('Escape');
    // The colour-mode script in index.html runs by its hash: dark mode survives a reload.
    await page.locator('label', { hasText: 'Dark Mode' }).click();
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.locator('label', { hasText: 'Dark Mode' }).click();
    // A blob: download.
    await page.goto('/incident-report');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .md' }).click()]);
    expect(readFileSync((await download.path())!, 'utf8')).toMatch(/^# Incident report/);
    expect(await violations()).toEqual([]);
  });

  it('blocks what the policy forbids: a foreign script, an inline script without its hash, a foreign frame', async () => {
    const { page } = b;
    await page.goto('/servers');
    await shown(page.getByRole('heading', { name: 'Servers' }));
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.src = 'https://cdn.example.com/evil.js';
      document.head.append(s);
      const inline = document.createElement('script');
      inline.textContent = 'window.__ran = true';
      document.head.append(inline);
      const f = document.createElement('iframe');
      f.src = 'https://evil.example.com/';
      document.body.append(f);
    });
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
    const seen = (await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).sort();
    expect(seen).toEqual(['frame-src https://evil.example.com', 'script-src-elem https://cdn.example.com/evil.js', 'script-src-elem inline'].sort());
  });
});

describe('GRAFANA_URL in the policy', () => {
  let server: RunningServer;
  let grafana: Server;
  let grafanaUrl: string;
  let b: Browser;
  beforeAll(async () => {
    const port = await freePort();
    // A stand-in Grafana on loopback: a panel for every path, and /framer, a foreign page that frames the console.
    grafana = createServer((req, res) => {
      const body = req.url === '/framer' ? `<iframe id="console" src="${server.url}/login"></iframe>` : '<p id="panel">panel</p>';
      res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    });
    await new Promise<void>((r) => grafana.listen(port, '127.0.0.1', r));
    grafanaUrl = `http://127.0.0.1:${port}`;
    server = await startServer({ env: { GRAFANA_URL: `${grafanaUrl}/grafana` } });
    b = await openBrowser(server.url);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    grafana?.close();
  });

  it("frames GRAFANA_URL's panels and nothing else, and cannot itself be framed", async () => {
    const { page } = b;
    const violations = await watchViolations(page);
    await signIn(page);
    await page.evaluate((url) => {
      for (const src of [`${url}/grafana/d-solo/x?panelId=1`, 'http://localhost:9/other']) {
        const f = document.createElement('iframe');
        f.src = src;
        document.body.append(f);
      }
    }, grafanaUrl);
    const panel = page.frameLocator(`iframe[src^="${grafanaUrl}"]`).locator('#panel');
    await shown(panel);
    await page.waitForTimeout(300);
    const seen = await violations();
    expect(seen.some((v) => v.startsWith('frame-src') && v.includes('localhost:9'))).toBe(true);
    // Nothing about the panel (the policy's own text names GRAFANA_URL, so look at what was blocked).
    expect(seen.filter((v) => v.startsWith(`frame-src ${grafanaUrl}`) || v.includes(`'${grafanaUrl}`))).toEqual([]);
    // Another site framing the console gets nothing (frame-ancestors 'none'; X-Frame-Options DENY).
    const refused: string[] = [];
    page.on('console', (m) => void (/frame-ancestors/.test(m.text()) && refused.push(m.text())));
    await page.goto(`${grafanaUrl}/framer`);
    await page.waitForTimeout(1000);
    const child = page.frames().find((f) => f !== page.mainFrame());
    expect(await child!.locator('#root').count()).toBe(0);
    expect(refused.length).toBeGreaterThan(0);
  });
});
