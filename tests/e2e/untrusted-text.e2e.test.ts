import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { startServer, type RunningServer } from './server-process';

/**
 * Issue 11 §3: what a monitored host reports is shown as text. A node_exporter stand-in reports a
 * failed systemd unit whose name is a link, an image, raw HTML, a heading after blank lines,
 * backticks and a `javascript:` link; the real scrape and the real evaluator turn it into a
 * service-down alert, and every screen that shows it (drawer, alerts table, dashboard card,
 * palette, incident report) must show those characters and no element made of them.
 */
const SERVICE = '[Click to fix](https://evil.example/phish) ![x](https://evil.example/p.png) <img src=x onerror=alert(1)> <h1>big</h1> `code` ``two``\n\n# Heading [j](javascript:alert(1)).service';
const FLAT = SERVICE.replace(/\n+/g, ' ');
const FIXTURE = readFileSync(new URL('../../server/monitoring/fixtures/node-exporter-scrape1.prom', import.meta.url), 'utf8');
const label = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const METRICS = `${FIXTURE}
# HELP node_systemd_unit_state Systemd unit
# TYPE node_systemd_unit_state gauge
node_systemd_unit_state{name="${label(SERVICE)}",state="active",type="simple"} 0
node_systemd_unit_state{name="${label(SERVICE)}",state="failed",type="simple"} 1
node_systemd_unit_state{name="ssh.service",state="active",type="simple"} 1
`;

/** No element made of the host's text: no link or image anywhere near it, no heading holding it, no script. */
async function noMarkupFrom(scope: Locator): Promise<void> {
  expect(await scope.locator('a[href*="evil"], a[href^="javascript"], img, script').count()).toBe(0);
  expect(await scope.locator('h1, h2, h3, h4').filter({ hasText: /Heading|big/ }).count()).toBe(0);
}

describe('text a monitored host controls', () => {
  let server: RunningServer;
  let b: Browser;
  let alertId = '';
  const exporter = createServer((req, res) => (req.url === '/metrics' ? res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(METRICS) : res.writeHead(404).end()));

  beforeAll(async () => {
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    server = await startServer({ env: { SCRAPE_INTERVAL: '2', ALERT_EVAL_INTERVAL: '2' } });
    const admin = await apiSession(server.url);
    const created = await admin.call<{ result: { _id: string } }>('POST', 'servers', {
      hostname: 'untrusted-01',
      ipaddress: '127.0.0.1',
      agentPort: (exporter.address() as AddressInfo).port,
      operating_system: 'linux',
      isAgentConfigured: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The shortest grace period SPEC offers, so the alert opens a minute after the first scrape.
    const config = (await admin.call<{ result: { data: { _id: string; rules: Record<string, any>[] }[] } }>('POST', 'alert-config/get-alert-config/all', { filter: { serverId: { eq: created.body.result._id } } })).body.result.data[0]!;
    const rules = config.rules.map(({ metric: _m, ...r }) => (r.name === 'service_down' ? { ...r, timeLimit: 60 } : r));
    expect((await admin.call('PATCH', `alert-config/update-alert-config/${config._id}`, { rules })).status).toBe(200);
    b = await openBrowser(server.url);
    await signIn(b.page);
    for (const deadline = Date.now() + 150_000; !alertId; await new Promise((r) => setTimeout(r, 2000))) {
      if (Date.now() > deadline) throw new Error(`no service_down alert for untrusted-01 within 150 s:\n${server.output().slice(-2000)}`);
      const list = await admin.call<{ result: { data: { _id: string }[] } }>('POST', 'alerts/all', { filter: { hostname: { eq: 'untrusted-01' }, alertname: { eq: 'service_down' } } });
      alertId = list.body.result.data[0]?._id ?? '';
    }
  }, 240_000);

  afterAll(async () => {
    await b?.close();
    await server?.stop();
    exporter.close();
  });

  it('the alert drawer shows the service name, summary and description as text', async () => {
    const { page } = b;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => errors.push(`dialog: ${d.message()}`));
    await page.goto(`/notifications/show/${alertId}`);
    const drawer = page.getByRole('dialog', { name: 'Alert service down on untrusted-01' });
    await shown(drawer);
    const overview = drawer.getByRole('definition');
    await shown(overview.filter({ hasText: 'Click to fix' }).first());
    const text = (await drawer.getByRole('list', { name: 'Overview' }).or(drawer.locator('dl[aria-label="Overview"]')).first().textContent()) ?? '';
    expect(text).toContain(`Service ${FLAT} is down on untrusted-01`);
    expect(text).toContain(`The agent has reported ${FLAT} down for 1 minute.`);
    // The Service row holds the name exactly as the host reported it.
    expect(text).toContain(SERVICE);
    // Our own emphasis stays ours: the name sits in one code element, nothing else became markup.
    expect(await drawer.locator('[data-alert-text] code').allTextContents()).toEqual([FLAT]);
    await noMarkupFrom(drawer);
    expect(errors).toEqual([]);
  });

  it('the alerts table, the dashboard card and the palette show it as text', async () => {
    const { page } = b;
    await page.goto('/notifications?view=table');
    const row = page.getByRole('row').filter({ hasText: 'untrusted-01' });
    await shown(row);
    expect(await row.locator('[data-alert-text]').textContent()).toBe(`The agent has reported ${FLAT} down for 1 minute.`);
    await noMarkupFrom(page.getByRole('table', { name: 'Alerts' }));

    await page.goto('/');
    const card = page.getByRole('row').filter({ hasText: 'untrusted-01' }).filter({ has: page.locator('[data-alert-text]') });
    await shown(card);
    expect(await card.locator('[data-alert-text]').textContent()).toBe(`The agent has reported ${FLAT} down for 1 minute.`);
    await noMarkupFrom(card);

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('untrusted-01');
    const option = palette.getByRole('option').filter({ hasText: 'service down · untrusted-01' });
    await shown(option);
    expect(await option.textContent()).toContain(`Service ${FLAT} is down on untrusted-01`);
    await noMarkupFrom(palette);
    await page.keyboard.press('Escape');
  });

  it('the incident report, on screen and as the downloaded markdown, shows it as text', async () => {
    const { page } = b;
    await page.goto('/incident-report');
    const report = page.getByRole('main');
    await shown(report.getByRole('listitem').filter({ hasText: `Summary: Service ${FLAT} is down on untrusted-01` }), 30_000);
    await noMarkupFrom(report);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .md' }).click()]);
    const markdown = readFileSync((await download.path())!, 'utf8');
    // Read by a full CommonMark + GFM parser (what GitHub or an editor would do with the file):
    // the name makes no link, image, HTML or heading; it sits in code spans.
    type Node = { type: string; url?: string; value?: string; children?: Node[] };
    const nodes: Node[] = [];
    const walk = (n: Node) => (nodes.push(n), n.children?.forEach(walk));
    walk(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as Node);
    const textOf = (n: Node): string => n.value ?? (n.children ?? []).map(textOf).join('');
    expect(nodes.filter((n) => n.type === 'link' || n.type === 'image' || n.type === 'html')).toEqual([]);
    expect(nodes.filter((n) => n.type === 'heading').map(textOf).filter((t) => /Heading|big|evil/.test(t))).toEqual([]);
    expect(nodes.filter((n) => n.type === 'inlineCode' && n.value === FLAT).length).toBeGreaterThanOrEqual(2);
    expect(markdown).toContain('- **Summary:** Service ```[Click to fix]');
  });
});
