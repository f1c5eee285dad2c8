import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commandLine, gone, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { freePort } from './server-process';

/**
 * The incident report (issue 5 §4) on the shared server. The alert is real: a server whose
 * agent port nobody listens on is scraped down and the evaluator opens its instance_down alert
 * after the rule's 60 s grace period. Notes go through the alert API as the alert screens send
 * them; commands are typed on the command line, so the history is what operators leave.
 */

type Session = Awaited<ReturnType<typeof apiSession>>;
const eventually = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(fn, { timeout: 15_000, interval: 200, ...options });
const search = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

describe('incident report', () => {
  const baseURL = inject('baseURL');
  const hostname = `incident-${randomBytes(3).toString('hex')}`;
  const NOTE = 'Checked the host | port closed';
  let admin: Session;
  let serverId: string;
  let alertId: string;
  let b: Browser;

  beforeAll(async () => {
    admin = await apiSession(baseURL);
    const created = await admin.call<{ result: { _id: string } }>('POST', 'servers', { hostname, ipaddress: '127.0.0.1', agentPort: await freePort(), operating_system: 'linux', isAgentConfigured: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    serverId = created.body.result._id;
    b = await openBrowser(baseURL);
    await signIn(b.page);
    // Scrape interval (15 s) + grace period (60 s) + evaluation interval (15 s), with room for a
    // busy machine. (expect.poll only works inside a test.)
    const deadline = Date.now() + 200_000;
    for (;;) {
      const r = await admin.call<{ result: { data: { _id: string; alertname: string }[] } }>('POST', 'alerts/all', { pageNumber: 1, pageSize: 5, filter: { serverId, status: 'firing' } });
      const found = r.body.result.data.find((a) => a.alertname === 'instance_down');
      if (found) {
        alertId = found._id;
        break;
      }
      if (Date.now() > deadline) throw new Error(`no instance_down alert for ${hostname} within 200 s`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }, 240_000);

  afterAll(async () => {
    await b?.close();
    // Its alerts and their timelines go with it, leaving the shared server as it was.
    if (serverId) await admin.call('DELETE', `servers/${serverId}`);
  });

  it('reports the alert, its notes and the commands run, from the History panel and from the command line, and downloads the .md', async () => {
    const { page } = b;
    const note = await admin.call('PATCH', `alerts/${alertId}`, { status: 'firing', log: NOTE });
    expect(note.status, JSON.stringify(note.body)).toBe(200);

    // What operators do during the incident, on the command line: two that work, one that fails.
    await commandLine(page, `server.toggle-maintenance ${hostname} on`);
    await shown(page.getByText(`alarms are suppressed`));
    await commandLine(page, `server.toggle-maintenance ${hostname} off`);
    await shown(page.getByText(`alarms are raised again`));
    // The one that fails is refused by the server (the name is taken), which records it; a run
    // refused before any call would leave no record (History is the server's).
    expect((await admin.call('POST', 'notification-groups', { name: 'IR Taken group' })).status).toBe(201);
    await commandLine(page, 'group.create --name "IR Taken group"');
    await shown(page.getByText(/IR Taken group" already exists/).first());
    // The alert picked by id, as a screen or the palette picks it; a snooze undone with Ctrl+Z.
    await commandLine(page, `alert.ack ${alertId}`);
    await shown(page.getByText(/Acknowledged/).first());
    await commandLine(page, `alert.snooze ${alertId} --note Looking --for 30m`);
    await shown(page.getByText(/Snoozed/).first());
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+z');
    await eventually(async () => (await admin.call<{ result: { status: string } }>('GET', `alerts/${alertId}`)).body.result.status).toBe('firing');

    // History reads as the team's log (issue 24 §4): by name, one row per happening, the
    // evaluator's event in the same stream, the undo as an undo; sign-ins only when asked for.
    await page.keyboard.press('Alt+h');
    const history = page.getByRole('dialog', { name: 'Command history' });
    const ref = `instance_down@${hostname}`;
    const expected = [
      `undo of alert.snooze ${ref} --note Looking --for 30m`,
      `alert.snooze ${ref} --note Looking --for 30m`,
      `alert.ack ${ref}`,
      `server.toggle-maintenance ${hostname} off`,
      `server.toggle-maintenance ${hostname} on`,
      `alert.fired ${ref}`,
    ];
    const lines = async () => (await history.locator('li [data-line]').allTextContents()).filter((l) => l.includes(hostname));
    await eventually(lines).toEqual(expected);
    expect(await history.locator('li[data-kind="system"] [data-line]').allTextContents()).toContain(`alert.fired ${ref}`);
    expect(await history.getByText(alertId).count()).toBe(0);
    expect(await history.locator('li [data-line]', { hasText: 'POST /api/auth/signin' }).count()).toBe(0);
    await history.getByLabel('Sign-ins and views').check();
    await shown(history.locator('li [data-line]', { hasText: 'POST /api/auth/signin' }));
    await history.getByLabel('Sign-ins and views').uncheck();
    await history.getByLabel("Opsdeck's events").uncheck();
    await eventually(lines).toEqual(expected.slice(0, -1));
    await history.getByLabel("Opsdeck's events").check();
    await history.getByLabel('Time range').selectOption('1h');
    await eventually(lines).toEqual(expected);
    // Re-run is offered where it makes sense: never on what Opsdeck did.
    expect(await history.locator('li[data-kind="system"]').getByRole('button', { name: /^Re-run/ }).count()).toBe(0);
    await page.keyboard.press('Escape');

    const resolved = await admin.call('PATCH', `alerts/${alertId}`, { status: 'resolved', log: 'Agent port opened again' });
    expect(resolved.status).toBe(200);

    // From the History panel: the report of the last 6 hours, all servers.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Alt+h');
    const panel = page.getByRole('dialog', { name: 'Command history' });
    await shown(panel);
    await panel.getByRole('button', { name: 'Incident report' }).click();
    await page.waitForURL((url) => url.pathname === '/incident-report');
    await gone(panel);
    const { from, to } = search(page);
    expect(Date.parse(to!) - Date.parse(from!)).toBe(6 * 3_600_000);
    expect(Math.abs(Date.parse(to!) - Date.now())).toBeLessThan(120_000);

    const preview = page.getByRole('article', { name: 'Report preview' });
    await shown(preview.getByRole('heading', { level: 1, name: /^Incident report: all servers/ }));
    await shown(preview.getByRole('heading', { level: 3, name: `instance_down on ${hostname}` }));
    // The note is quoted, with its pipe as text: the table around it keeps four columns.
    await shown(preview.locator('blockquote', { hasText: NOTE }));
    const rows = preview.getByRole('table').getByRole('row');
    const noteRow = rows.filter({ hasText: `Note on alert instance_down on ${hostname}: ${NOTE}` });
    await shown(noteRow);
    expect(await noteRow.getByRole('cell').count()).toBe(4);
    expect(await noteRow.getByRole('cell').nth(1).textContent()).toBe('admin');
    const maintenanceRows = rows.filter({ hasText: /server\.toggle-maintenance .* (on|off)/ });
    expect(await maintenanceRows.count()).toBeGreaterThanOrEqual(2);
    await shown(rows.filter({ hasText: 'group.create' }).filter({ hasText: 'error: A notification group named "IR Taken group" already exists' }));

    // From the command line: one server, an hour back.
    await commandLine(page, `incident.report --from -1h --to now --server ${hostname}`);
    await eventually(() => search(page).server).toBe(serverId);
    await page.keyboard.press('Escape');
    await shown(preview.getByRole('heading', { level: 1, name: new RegExp(`^Incident report: ${hostname} \\(127\\.0\\.0\\.1\\)`) }));
    await shown(preview.locator('blockquote', { hasText: 'Agent port opened again' }));
    await eventually(() => preview.getByText('IR Taken group').count()).toBe(0);
    expect(await preview.getByRole('table').getByRole('row').filter({ hasText: 'server.toggle-maintenance' }).count()).toBeGreaterThanOrEqual(2);
    const window = search(page);
    expect(Date.parse(window.to!) - Date.parse(window.from!)).toBe(3_600_000);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .md' }).click()]);
    const stamp = (iso: string) => iso.replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
    expect(download.suggestedFilename()).toBe(`incident-${stamp(window.from!)}-${stamp(window.to!)}.md`);
    const md = readFileSync((await download.path())!, 'utf8');
    expect(md.split('\n')[0]).toMatch(new RegExp(`^# Incident report: ${hostname} \\(127\\.0\\.0\\.1\\), `));
    expect(md).toContain(`### instance\\_down on ${hostname}`);
    expect(md).toContain('> Checked the host \\| port closed');
    expect(md).toContain('> Agent port opened again');
    expect(md).toMatch(/- \*\*Alerts:\*\* 1 \(1 fired in the window, 1 resolved in the window, 0 still open at its end\)/);
    expect(md).toMatch(new RegExp(`\\| admin \\| Note on alert instance\\\\_down on ${hostname}: Checked the host \\\\\\| port closed \\| noted \\|`));
    // The server's record, by name (the stored line re-runs by id); the ack is one row, not two.
    expect(md).toContain(`| admin | server.toggle-maintenance ${hostname} on | ok |`);
    expect(md).toContain(`| admin | alert.ack \`instance_down@${hostname}\` | ok |`);
    expect(md).toContain(`| admin | undo of alert.snooze \`instance_down@${hostname}\` --note Looking --for 30m | ok |`);
    expect(md).not.toContain(`Acknowledged: alert instance\\_down on ${hostname}`);
    expect(md).not.toContain(alertId);
    expect(md).not.toContain('IR Taken group');
  });

  it('changes the window with a preset and with typed UTC times, and says what is wrong with a bad one', async () => {
    const { page } = b;
    await page.getByRole('radio', { name: 'Last 24 hours' }).click();
    await eventually(() => {
      const s = search(page);
      return Date.parse(s.to!) - Date.parse(s.from!);
    }).toBe(24 * 3_600_000);
    expect(search(page).server).toBe(serverId);

    await page.getByLabel('From (UTC)').fill('2026-01-10T09:00');
    await page.getByLabel('To (UTC)').fill('2026-01-10T12:00');
    await page.getByRole('button', { name: 'Apply' }).click();
    await eventually(() => search(page)).toMatchObject({ from: '2026-01-10T09:00:00.000Z', to: '2026-01-10T12:00:00.000Z', server: serverId });
    await shown(page.getByRole('article', { name: 'Report preview' }).getByText('No alerts were open in this window.'));

    await page.getByLabel('To (UTC)').fill('2026-01-10T08:00');
    await page.getByRole('button', { name: 'Apply' }).click();
    await shown(page.getByText('The end must be after the start.'));
    expect(search(page).to).toBe('2026-01-10T12:00:00.000Z');

    await page.getByRole('button', { name: 'All servers' }).click();
    await eventually(() => search(page).server).toBeUndefined();
    await shown(page.getByRole('article', { name: 'Report preview' }).getByRole('heading', { level: 1, name: /^Incident report: all servers, 2026-01-10 09:00:00/ }));
  });
});
