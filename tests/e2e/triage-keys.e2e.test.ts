import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, openPalette, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { startServer, type RunningServer } from './server-process';
import { runTriageJourney, seedTriage, TRIAGE } from './triage-journey';

/**
 * Issue 24 §5 and §8 in the browser, on a console of its own seeded with a scripted alert (the
 * evaluator off, so alerts stay as written): the keyboard triage journey within 35 keys beside
 * the notes' text, every change a command in History; the palette finding the CPU tab by
 * "cpu"; Tab on the `:` line completing alerts by their host, by name.
 */
const MAX_KEYS = 35;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
type Session = Awaited<ReturnType<typeof apiSession>>;

describe('triage by keyboard', () => {
  let server: RunningServer;
  let admin: Session;
  let b: Browser;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-e2e-triage-'));
    await seedTriage(dataDir);
    server = await startServer({ dataDir, env: { ALERT_EVALUATION: '0' } });
    admin = await apiSession(server.url);
    b = await openBrowser(server.url);
    await signIn(b.page);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  it(`acknowledges, opens the server's CPU chart over the last hour, turns maintenance on, resolves and shows History within ${MAX_KEYS} keys beside the notes`, { timeout: 180_000 }, async () => {
    const count = await runTriageJourney(b.page, admin);
    const detail = count.steps.map((s) => `${s.step}: ${s.pressed.join(' ')}`).join('\n');
    expect(count.keys, detail).toBeLessThanOrEqual(MAX_KEYS);
    expect(count.text).toBe(TRIAGE.ackNote.length + TRIAGE.resolveNote.length);
  });

  it('finds the CPU tab in the palette by "cpu" on a server detail', async () => {
    const { page } = b;
    await page.keyboard.press('Escape');
    const { body } = await admin.call('POST', 'servers/all', { pageNumber: 1, pageSize: 5, filter: { hostname: { eq: 'web-01' } } });
    await page.goto(`/servers/show/${body.result.data[0]._id}?tab=memory`);
    await shown(page.getByRole('tab', { name: 'Memory', selected: true }));
    const input = await openPalette(page);
    await input.fill('cpu');
    const first = page.getByTestId('palette-results').locator('[cmdk-item]').first();
    await expect.poll(() => first.textContent()).toBe('Server detailCPU tabOpen server detail tab');
    await input.press('Enter');
    await shown(page.getByRole('tab', { name: 'CPU', selected: true }));
    expect(new URL(page.url()).searchParams.get('tab')).toBe('cpu');
  });

  it('completes an alert on the : line from the start of its host, by name and host, never an id', async () => {
    const { page } = b;
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.type(':');
    const line = page.getByRole('textbox', { name: 'Command line' });
    await shown(line);
    await line.fill('alert.snooze db');
    await line.press('Tab');
    const terminal = page.getByRole('dialog', { name: 'Command line' });
    // The open alerts of db-01 and db-02 (the journey above may have resolved db-02's), by name and host.
    const listed = terminal.locator('code').filter({ hasText: /^service_down@db-01:nginx$/ });
    await shown(listed);
    const candidates = await listed.locator('xpath=..').locator('code').allTextContents();
    expect(candidates).toEqual(expect.arrayContaining(['service_down@db-01:nginx', 'service_down@db-01:redis']));
    expect(candidates.every((c) => /^[a-z_]+@db-0[12](:[a-z]+)?$/.test(c))).toBe(true);
    expect(await terminal.textContent()).not.toMatch(UUID);
    // Two open alerts of one name on db-01: the shared start is filled in.
    await line.fill('alert.snooze db-01');
    await line.press('Tab');
    await expect.poll(() => line.inputValue()).toBe('alert.snooze service_down@db-01:');
    await line.press('r');
    await line.press('Tab');
    await expect.poll(() => line.inputValue()).toBe('alert.snooze service_down@db-01:redis ');
    await line.pressSequentially('--note "restarting it" --for 30m');
    await line.press('Enter');
    await shown(terminal.getByText('Snoozed service down on db-01 for 30m.'));
    const { body } = await admin.call('POST', 'alerts/all', { pageNumber: 1, pageSize: 5, filter: { hostname: { eq: 'db-01' }, alertname: { eq: 'service_down' } }, sort: { by: 'createdAt', direction: 'asc' } });
    expect(body.result.data.map((a: { status: string }) => a.status)).toEqual(['firing', 'snoozed']);
  });
});
