import { get as httpGet } from 'node:http';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCheckTargets, type CheckTargets } from '../check-targets';
import { openBrowser, settled, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

/**
 * Issue 24 §7 screen defects, measured in a real browser (boxes, computed styles, what is
 * drawn), against the shared server and local check targets: every sidebar entry has an icon,
 * also collapsed; no symbol depends on an emoji font; the sticky header is opaque; toasts stack
 * instead of covering each other; a check's page agrees with itself (results beside the state,
 * a lone result drawn, rule columns apart, command names as code); the check drawer's switches
 * keep apart; an unknown status page answers 404.
 */

type Box = { x: number; y: number; width: number; height: number };
const box = async (l: Locator): Promise<Box> => {
  const b = await l.boundingBox();
  if (!b) throw new Error('not rendered');
  return b;
};
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Visible text of the page that needs an emoji font (U+1F515 🔕, ✉, ☺, ⚠, ↕ …): a box where none is installed. */
const pictographs = (page: Page) =>
  page.evaluate(() => {
    const found = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !el.checkVisibility()) continue;
      for (const ch of n.textContent ?? '') if (/\p{Extended_Pictographic}/u.test(ch)) found.add(ch);
    }
    return [...found];
  });

describe('screen defects (issue 24 §7)', () => {
  let b: Browser;
  let targets: CheckTargets;
  let admin: Awaited<ReturnType<typeof apiSession>>;
  const baseURL = inject('baseURL');

  beforeAll(async () => {
    [b, targets, admin] = await Promise.all([openBrowser(baseURL, { viewport: { width: 1400, height: 900 } }), startCheckTargets(), apiSession(baseURL)]);
    await signIn(b.page);
  });
  afterAll(async () => {
    await b?.close();
    await targets?.close();
  });

  it('gives every sidebar entry an icon, so the collapsed sidebar has no empty slot', async () => {
    const { page } = b;
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const links = nav.getByRole('link');
    await shown(links.filter({ hasText: 'Status Pages' }));
    const labels = await links.allTextContents();
    expect(labels).toContain('Status Pages');
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await shown(nav.getByRole('link', { name: 'Status Pages' }));
    const empty: string[] = [];
    for (const link of await links.all()) {
      const icon = link.locator('svg');
      const name = (await link.getAttribute('aria-label')) ?? '';
      if ((await icon.count()) !== 1) {
        empty.push(`${name}: no icon`);
        continue;
      }
      const [l, i] = [await box(link), await box(icon)];
      if (i.width < 12 || i.height < 12 || i.x < l.x || i.x + i.width > l.x + l.width) empty.push(`${name}: icon ${i.width}×${i.height} outside its link`);
    }
    expect(empty).toEqual([]);
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
  });

  it('draws no symbol that needs an emoji font: the icons are SVG', async () => {
    const { page } = b;
    const found: string[] = [];
    for (const path of ['/', '/users', '/checks', '/notification-groups', '/notifications/silences']) {
      await page.goto(path);
      await shown(page.getByRole('heading', { level: 1 }));
      await settled(page);
      for (const ch of await pictographs(page)) found.push(`${path}: ${ch}`);
    }
    expect(found).toEqual([]);
  });

  it('keeps the sticky header opaque, so what scrolls under it does not show through', async () => {
    const { page } = b;
    await page.goto('/');
    const style = await page.getByRole('banner').evaluate((el) => {
      const s = getComputedStyle(el);
      // The colour's alpha as drawn (any CSS colour syntax: rgb, oklab, color-mix…).
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.fillStyle = s.backgroundColor;
      ctx.fillRect(0, 0, 1, 1);
      return { position: s.position, alpha: ctx.getImageData(0, 0, 1, 1).data[3] };
    });
    expect(style.position).toBe('sticky');
    // 255 is opaque; bg-white/90 (230) lets a red gauge through.
    expect(style.alpha).toBe(255);
  });

  it('stacks the toasts of one action (the notice with Undo and the message) instead of drawing one over the other', async () => {
    const { page } = b;
    await page.goto('/checks');
    await page.getByRole('link', { name: 'Add check' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create Check' });
    await drawer.getByLabel('Name', { exact: true }).fill('Toast stack');
    await drawer.getByLabel('URL', { exact: true }).fill(`${targets.httpUrl}/ok`);
    await drawer.getByRole('button', { name: 'Create' }).click();
    const notice = page.getByTestId('notice');
    const message = page.getByText('Created check Toast stack', { exact: true });
    await shown(notice);
    await shown(message);
    const [n, m] = [await box(notice), await box(message)];
    expect(overlap(n, m), `notice ${JSON.stringify(n)} and message ${JSON.stringify(m)} overlap`).toBe(false);
  });

  it("shows a check's first result beside its state at once, draws a lone result, spaces the rules' columns and writes command names as code", async () => {
    const { page } = b;
    // Paused first, so the page is open before the first result; resumed from the page, the check runs at once,
    // against a page that takes 1.2 s: its result lands after the lists' refresh that the resume caused.
    const created = await admin.call('POST', 'checks', { name: 'First result', kind: 'http', url: `${targets.httpUrl}/slow`, intervalSeconds: 3600, timeoutSeconds: 5, paused: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await page.goto(`/checks/show/${created.body.result._id}`);
    const results = page.getByRole('table', { name: 'Last results' });
    await shown(page.getByText('No results yet.'));
    // Sampled in the page on every frame until the first result is listed: the state never says
    // "Up" while the list beside it says "No results yet".
    const sampling = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let seen = 0;
          const end = Date.now() + 30_000;
          const frame = () => {
            const state = document.querySelector('[data-testid="check-state"]')?.textContent ?? '';
            const text = document.querySelector('main')?.textContent ?? '';
            if (state.includes('Up') && text.includes('No results yet.')) seen++;
            const listed = [...document.querySelectorAll('table[aria-label="Last results"] tbody td')].some((td) => td.textContent === 'Up');
            if (listed || Date.now() > end) resolve(seen);
            else requestAnimationFrame(frame);
          };
          frame();
        }),
    );
    await page.locator('label', { hasText: 'Paused' }).click();
    const contradictions = await sampling;
    expect(contradictions, 'frames showing "Up" beside "No results yet"').toBe(0);
    await shown(page.getByTestId('check-state').filter({ hasText: 'Up' }));
    await shown(results.getByRole('cell', { name: 'Up', exact: true }));

    // One result in the chart: a dot in the series' colour (a line needs two points).
    const chart = page.getByRole('group', { name: 'Response time over time' });
    await expect
      .poll(
        () =>
          chart.locator('canvas').evaluate((c: HTMLCanvasElement) => {
            const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
            let coloured = 0;
            for (let i = 0; i < data.length; i += 4) {
              const [r, g, bl, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
              // Grid and axes are grey; a series is saturated.
              if (a > 100 && Math.max(r, g, bl) - Math.min(r, g, bl) > 60) coloured++;
            }
            return coloured;
          }),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(4);

    // The rules' columns: each cell's text at least 8 px from the next one's.
    const gaps = await page.getByRole('table', { name: 'Alert rules' }).evaluate((table) => {
      const textBox = (cell: Element) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        return rects.length ? { left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)) } : null;
      };
      const tight: string[] = [];
      for (const row of table.querySelectorAll('tr')) {
        const cells = [...row.children].map((c) => ({ text: c.textContent ?? '', at: textBox(c) }));
        for (let i = 0; i + 1 < cells.length; i++) {
          const [a, z] = [cells[i]!, cells[i + 1]!];
          if (a.at && z.at && z.at.left - a.at.right < 8) tight.push(`"${a.text}" | "${z.text}": ${(z.at.left - a.at.right).toFixed(1)} px`);
        }
      }
      return tight;
    });
    expect(gaps).toEqual([]);
    const main = await page.locator('main').innerText();
    expect(main).not.toContain('`');
    await shown(page.locator('main code', { hasText: 'check.edit' }));
  });

  it("keeps the check drawer's rule switches apart: a label never runs into the next switch", async () => {
    const { page } = b;
    await page.goto('/checks/create');
    const drawer = page.getByRole('dialog', { name: 'Create Check' });
    const slow = drawer.locator('label', { hasText: 'Alert on slow responses' });
    const cert = drawer.locator('label', { hasText: 'Alert when the certificate expires soon' });
    await shown(slow);
    const [a, z] = [await box(slow), await box(cert)];
    const sameLine = a.y < z.y + z.height && z.y < a.y + a.height;
    if (sameLine) expect(z.x - (a.x + a.width), 'gap between the two switches on one line').toBeGreaterThanOrEqual(16);
    else expect(z.y).toBeGreaterThanOrEqual(a.y + a.height);
    expect(overlap(a, z)).toBe(false);
    await page.keyboard.press('Escape');
  });

  it('answers 404 for a status page that does not exist, and 200 for one that does', async () => {
    const made = await admin.call('POST', 'status-pages', { slug: 'defects-status', title: 'Defects status' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const get = (path: string) => fetch(`${baseURL}${path}`, { headers: { accept: 'text/html' } });
    const missing = await get('/status/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/text\/html/);
    expect(await missing.text()).toContain('<div id="root"></div>');
    const found = await get('/status/defects-status');
    expect(found.status).toBe(200);
    expect((await get('/status/Defects-Status')).status).toBe(200);
    // A browser revalidating the copy it holds (a reload) still gets the page with its 404.
    for (const [name, value] of [['if-none-match', found.headers.get('etag')!], ['if-modified-since', found.headers.get('last-modified')!]] as const) {
      // node:http, as a browser sends it: fetch() would add "cache-control: no-cache" to it.
      const revalidated = await new Promise<{ status: number; body: string }>((done, fail) => {
        httpGet(`${baseURL}/status/no-such-page`, { headers: { accept: 'text/html', [name]: value } }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => done({ status: res.statusCode!, body }));
        }).on('error', fail);
      });
      expect(revalidated.status, name).toBe(404);
      expect(revalidated.body, name).toContain('<div id="root"></div>');
    }
    // The page itself still says so in the browser.
    await b.page.goto('/status/no-such-page');
    await shown(b.page.getByRole('heading', { name: 'No status page here' }));
  });
});
