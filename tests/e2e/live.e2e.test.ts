import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { startServer, type RunningServer } from './server-process';

/**
 * Issue 24 §1–§3 in two browsers on a console of this test's own (it is stopped and started
 * again under an open page): what one browser or the system changes shows in the other within
 * 2 s — dashboard, tab title, lists, an open drawer, History — without a reload or a poll (the
 * lists' polls are 15–30 s, the dashboard has none); a stopped API is "Connection lost", never a
 * signed-out page, and the page recovers by itself.
 */
const RECEIVER_TOKEN = 'live-e2e-receiver-token-0123456789';
const PUSH_MS = 2_000;

describe('a live console in two browsers', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-live-e2e-'));
  let server: RunningServer;
  let a: Browser;
  let b: Browser;
  let admin: Awaited<ReturnType<typeof apiSession>>;

  /** An alert as Alertmanager's webhook sends it: opened by the system, not by either browser. */
  const fire = async (alertname: string, status: 'firing' | 'resolved' = 'firing') => {
    const res = await fetch(`${server.url}/api/integrations/alertmanager`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${RECEIVER_TOKEN}` },
      body: JSON.stringify({
        version: '4',
        status,
        alerts: [{ status, labels: { alertname, severity: 'critical', instance: 'live-host:9100' }, annotations: { summary: `${alertname} summary` }, startsAt: new Date().toISOString(), fingerprint: `fp-${alertname}` }],
      }),
    });
    const body = (await res.json()) as { result?: { alertIds: string[] } };
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body.result!.alertIds[0]!;
  };
  /** Resolves within `ms` or fails naming what did not show. */
  const within = async (what: string, ms: number, check: () => Promise<void>) => {
    const t0 = Date.now();
    await check().catch((e: Error) => {
      throw new Error(`${what} did not show within ${ms} ms (${Date.now() - t0} ms): ${e.message.split('\n')[0]}`);
    });
  };
  const title = (page: Page, expected: string, ms: number) => page.waitForFunction((t) => document.title === t, expected, { timeout: ms });

  beforeAll(async () => {
    server = await startServer({ dataDir, env: { ALERTMANAGER_RECEIVER_TOKEN: RECEIVER_TOKEN } });
    admin = await apiSession(server.url);
    a = await openBrowser(server.url);
    b = await openBrowser(server.url);
    await signIn(a.page);
    await signIn(b.page);
  }, 180_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('an alert the system opens shows at once on the open dashboard, in the tab title and the sidebar', async () => {
    await b.page.goto('/');
    await shown(b.page.getByRole('heading', { name: 'Instance Down' }).or(b.page.getByText('Instance Down')));
    expect(await b.page.title()).toBe('Opsdeck');
    // The stream is open before the change (the page is settled on its first answers).
    await b.page.waitForTimeout(1_000);
    await fire('LiveFirst');
    await within('the tab title count', PUSH_MS, () => title(b.page, '(1) Opsdeck', PUSH_MS).then(() => undefined));
    await within('the alert on the dashboard', PUSH_MS, () => shown(b.page.getByText('LiveFirst'), PUSH_MS));
    await shown(b.page.getByTestId('sidebar-firing').filter({ hasText: '1' }), 1_000);
    // A critical alert is a toast naming it, with Acknowledge and Open and their keys.
    const toast = b.page.getByTestId('alert-toast');
    await shown(toast.filter({ hasText: 'LiveFirst@live-host' }), 1_000);
    expect(await toast.getByRole('button', { name: /^Acknowledge/ }).textContent()).toBe('AcknowledgeAlt+A');
    expect(await toast.getByRole('button', { name: /^Open/ }).textContent()).toBe('OpenAlt+O');
    await b.page.keyboard.press('Alt+A');
    await toast.first().waitFor({ state: 'hidden', timeout: 5_000 });
    const alerts = await admin.call<{ result: { data: { alertname: string; acknowledgement: { by: { username: string } } | null }[] } }>('POST', 'alerts/all', { pageNumber: 1, pageSize: 10 });
    expect(alerts.body.result.data.find((x) => x.alertname === 'LiveFirst')?.acknowledgement?.by.username).toBe('admin');
  });

  it('a change made in one browser shows in the other’s list, open drawer and History within 2 s', async () => {
    const id = await fire('LiveSecond');
    await b.page.goto('/notifications?view=table');
    await shown(b.page.getByText('LiveSecond'));
    await b.page.goto(`/notifications/show/${id}`);
    const drawer = b.page.getByRole('dialog');
    await shown(drawer.getByText('LiveSecond').first());
    expect(await drawer.getByText('Resolved', { exact: true }).count()).toBe(0);
    await b.page.waitForTimeout(500);
    // Browser a resolves it on its command line.
    await a.page.goto('/notifications');
    await commandLine(a.page, `alert.resolve ${id} --note fixed-live`);
    await within('Resolved in the open drawer', PUSH_MS, () => shown(drawer.getByText('Resolved', { exact: true }), PUSH_MS));
    await within('the title count going down', PUSH_MS, () => title(b.page, '(1) Opsdeck', PUSH_MS).then(() => undefined));

    // History open in b: a's next command shows in it.
    await b.page.keyboard.press('Escape');
    await b.page.goto('/notifications?view=table');
    await commandLine(b.page, 'history.show');
    const history = b.page.getByRole('dialog', { name: 'Command history' });
    await shown(history);
    await b.page.waitForTimeout(500);
    const before = await history.getByText('alert.reopen').count();
    await commandLine(a.page, `alert.reopen ${id} --note again`);
    await within('the record in the open History panel', PUSH_MS, () => history.getByText('alert.reopen').nth(before).waitFor({ state: 'visible', timeout: PUSH_MS }));
  });

  it('a server added elsewhere shows in the open Servers list within 2 s, keeping the half-typed filter', async () => {
    await b.page.keyboard.press('Escape');
    await b.page.goto('/servers?view=table');
    const search = b.page.getByPlaceholder('Search by Hostname');
    await shown(search);
    await search.fill('live-s');
    await b.page.waitForTimeout(1_200);
    const res = await admin.call('POST', 'servers', { hostname: 'live-srv-1', ipaddress: '127.0.0.97', operating_system: 'linux' });
    expect(res.status).toBe(201);
    await within('the new server in the list', PUSH_MS, () => shown(b.page.getByText('live-srv-1'), PUSH_MS));
    expect(await search.inputValue()).toBe('live-s');
  });

  it('the API stopped under an open page shows "Connection lost", never a signed-out page, and recovers when it is back', async () => {
    await b.page.goto('/notifications?view=table');
    await shown(b.page.getByText('LiveFirst'));
    const port = server.port;
    const stopped = await server.stop();
    expect(stopped.clean, server.output()).toBe(true);
    const banner = b.page.getByTestId('connection-banner');
    await shown(banner, 10_000);
    const text = (await banner.textContent()) ?? '';
    expect(text).toMatch(/^Connection lost — showing data from \d\d:\d\d \(\d+ s old\)\. Reconnecting…$/);
    // The age counts.
    const age = async () => Number(/\((\d+) s old\)/.exec((await banner.textContent()) ?? '')?.[1]);
    const first = await age();
    await b.page.waitForTimeout(2_100);
    expect(await age()).toBeGreaterThan(first);
    expect(await b.page.locator('main[data-stale]').count()).toBe(1);
    // Data stays on screen, the person stays signed in.
    await shown(b.page.getByText('LiveFirst'));
    // A navigation while cut off stays in the app, too.
    await b.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
    await b.page.waitForTimeout(2_000);
    expect(new URL(b.page.url()).pathname).toBe('/');
    expect(await b.page.getByText(/Session Expired|You are now logged out/).count()).toBe(0);

    server = await startServer({ dataDir, port, env: { ALERTMANAGER_RECEIVER_TOKEN: RECEIVER_TOKEN } });
    await banner.waitFor({ state: 'hidden', timeout: 15_000 });
    expect(await b.page.locator('main[data-stale]').count()).toBe(0);
    expect(new URL(b.page.url()).pathname).toBe('/');
    // Live again: a new alert arrives without a reload.
    await b.page.waitForTimeout(500);
    await fire('LiveAfterRestart');
    await within('an alert after the restart', PUSH_MS + 1_000, () => shown(b.page.getByText('LiveAfterRestart'), PUSH_MS + 1_000));
  }, 120_000);
});
