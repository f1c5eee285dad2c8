import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commandLine, gone, openBrowser, openPalette, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { freePort } from './server-process';

/**
 * Alert routing (issue 14) in the browser, on the shared server. The alert is real: a server
 * whose agent port nobody listens on is scraped down and the evaluator opens its instance_down
 * alert after the rule's 60 s grace period (this file waits in the e2e "waiting" lane).
 */

type Session = Awaited<ReturnType<typeof apiSession>>;
interface ApiAlert {
  _id: string;
  alertname: string;
  hostname: string;
  status: string;
  acknowledgement: { by: { username: string }; note: string | null; until: string | null } | null;
}
const eventually = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(fn, { timeout: 15_000, interval: 250, ...options });

describe('alert routing', () => {
  const baseURL = inject('baseURL');
  const tag = randomBytes(3).toString('hex');
  const downHost = `routing-down-${tag}`;
  let admin: Session;
  let serverId: string;
  let alertId: string;
  let b: Browser;

  const alert = async () => (await admin.call<{ result: ApiAlert }>('GET', `alerts/${alertId}`)).body.result;

  beforeAll(async () => {
    admin = await apiSession(baseURL);
    const created = await admin.call<{ result: { _id: string } }>('POST', 'servers', { hostname: downHost, ipaddress: '127.0.0.1', agentPort: await freePort(), operating_system: 'linux', isAgentConfigured: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    serverId = created.body.result._id;
    b = await openBrowser(baseURL);
    await signIn(b.page);
    // Scrape interval (15 s) + grace period (60 s) + evaluation interval (15 s), with room for a
    // busy machine. (expect.poll only works inside a test.)
    const deadline = Date.now() + 200_000;
    for (;;) {
      const r = await admin.call<{ result: { data: ApiAlert[] } }>('POST', 'alerts/all', { pageNumber: 1, pageSize: 5, filter: { serverId, status: 'firing' } });
      const found = r.body.result.data.find((a) => a.alertname === 'instance_down');
      if (found) {
        alertId = found._id;
        break;
      }
      if (Date.now() > deadline) throw new Error(`no instance_down alert for ${downHost} within 200 s`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }, 240_000);

  afterAll(async () => {
    await b?.close();
    if (serverId) await admin.call('DELETE', `servers/${serverId}`);
  });

  it('acknowledges an alert from the palette: owner and note on its card and drawer, status still Active; Release from the card menu', async () => {
    const { page } = b;
    await page.goto(`/notifications?hostname=${downHost}`);
    const card = page.getByRole('article', { name: `instance down · ${downHost}`, exact: true });
    await shown(card);

    const input = await openPalette(page);
    await input.fill('Acknowledge alert');
    await shown(page.getByRole('option', { name: /Acknowledge alert$/ }));
    await input.press('Enter');
    // The alert argument: the palette searches the API for it.
    await page.keyboard.type(downHost);
    await shown(page.getByRole('option', { name: new RegExp(`instance down · ${downHost}`) }));
    await page.keyboard.press('Enter');
    await page.keyboard.type('Rebooting the host');
    await page.keyboard.press('Enter'); // note
    await page.keyboard.press('Enter'); // for: until it resolves
    await eventually(async () => (await alert()).acknowledgement?.by.username).toBe('admin');
    expect(await alert()).toMatchObject({ status: 'firing', acknowledgement: { note: 'Rebooting the host', until: null } });

    // The card says so (the list refreshes after the command), and the drawer shows owner and note.
    await shown(card.getByText('Acknowledged by'));
    await shown(card.getByText('Active'));
    await card.getByRole('button', { name: `instance down · ${downHost}` }).click();
    const drawer = page.getByRole('dialog', { name: `Alert instance down on ${downHost}` });
    await shown(drawer.getByText('“Rebooting the host”'));
    await drawer.getByRole('tab', { name: 'Timeline' }).click();
    await shown(drawer.getByText('Acknowledged', { exact: true }));
    await page.keyboard.press('Escape');
    await gone(drawer);

    // Release from the card's menu: the same command, run by mouse.
    await card.getByRole('button', { name: `Actions for instance down on ${downHost}` }).click();
    await page.getByRole('menuitem', { name: 'Release acknowledgement' }).click();
    await eventually(async () => (await alert()).acknowledgement).toBeNull();
    await gone(card.getByText('Acknowledged by'));
    await eventually(() => admin.historyMissing(['alert.ack', 'alert.unack'], ['alert.ack:palette:ok', 'alert.unack:ui:ok'])).toEqual([]);
  });

  it('previews a silence before saving it (what it matches now, a warning when nothing), creates it, marks the alert "Silenced by …", and expires it', async () => {
    const { page } = b;
    await page.goto('/notifications');
    await page.getByRole('navigation', { name: 'Notifications' }).getByRole('link', { name: 'Silences' }).click();
    await page.waitForURL((u) => u.pathname === '/notifications/silences');
    await page.getByRole('button', { name: 'New silence' }).click();
    const drawer = page.getByRole('dialog', { name: 'New silence' });
    const value = drawer.getByRole('textbox', { name: 'Matcher 1 value' });
    await value.fill(`routing-down-${tag}`);
    const preview = drawer.getByRole('region', { name: 'Preview' });
    await eventually(async () => (await preview.getByTestId('preview-counts').textContent())?.trim()).toBe('1 open alert on 1 server');
    await shown(preview.getByRole('list', { name: 'Matching alerts' }).getByText(`instance down on ${downHost}`));
    // A value that matches nothing: the warning, before anything is saved.
    await value.fill(`nothing-here-${tag}`);
    await shown(preview.getByRole('alert').getByText(/This matches nothing now/));
    await value.fill(`routing-down-.*`);
    await eventually(async () => (await preview.getByTestId('preview-counts').textContent())?.trim()).toBe('1 open alert on 1 server');
    await drawer.getByRole('textbox', { name: 'Comment' }).fill('Rack move');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await gone(drawer);
    const row = page.getByRole('row').filter({ hasText: 'Rack move' });
    await shown(row.getByText('hostname=~routing-down-.*'));
    // The evaluator applies it at once (a change triggers a tick): the alert says who silenced it.
    await eventually(async () => (await alert()) as unknown as { mute: { label: string } | null }, { timeout: 30_000 }).toMatchObject({ mute: { label: 'Silenced by admin' } });
    await page.goto(`/notifications?hostname=${downHost}`);
    await shown(page.getByRole('article', { name: `instance down · ${downHost}`, exact: true }).getByText('Silenced by admin'));
    await page.goto('/notifications/silences');
    await page.getByRole('button', { name: 'Expire silence hostname=~routing-down-.*' }).click();
    await gone(page.getByRole('row').filter({ hasText: 'Rack move' }));
    await eventually(async () => ((await alert()) as unknown as { mute: unknown }).mute, { timeout: 30_000 }).toBeNull();
    await eventually(() => admin.historyMissing(['silence.create', 'silence.expire'], ['silence.create:ui:ok', 'silence.expire:ui:ok'])).toEqual([]);
    // The screen's switch runs silence.list, as the command line would.
    await page.getByRole('radio', { name: 'Expired' }).click();
    await page.waitForURL((u) => u.pathname === '/notifications/silences' && u.searchParams.get('state') === 'expired');
    await shown(page.getByRole('row').filter({ hasText: 'Rack move' }));
  });

  it('draws a recurring window on the maintenance calendar, a month at a time, and opens it from an occurrence', async () => {
    const { page } = b;
    // Every Tuesday 22:00 for two hours (UTC, this browser's zone too), from the second Tuesday of next year's March.
    const year = new Date().getUTCFullYear() + 1;
    const firstTuesday = 1 + ((2 - new Date(Date.UTC(year, 2, 1)).getUTCDay() + 7) % 7);
    const day = (d: number) => new Date(Date.UTC(year, 2, d)).toLocaleDateString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
    const created = await admin.call<{ result: { _id: string } }>('POST', 'maintenance-windows', {
      name: `Tuesday patch ${tag}`,
      serverIds: [serverId],
      startsAt: new Date(Date.UTC(year, 2, firstTuesday + 7, 22)).toISOString(),
      endsAt: new Date(Date.UTC(year, 2, firstTuesday + 8, 0)).toISOString(),
      timezone: 'UTC',
      rrule: 'FREQ=WEEKLY;BYDAY=TU',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await commandLine(page, `maintenance.calendar --month ${year}-03`);
    await page.waitForURL((u) => u.pathname === '/notifications/maintenance' && u.searchParams.get('month') === `${year}-03`);
    const grid = page.getByRole('table', { name: new RegExp(`Maintenance in March ${year}`) });
    await shown(grid);
    const chips = grid.getByRole('button', { name: `22:00–00:00 Tuesday patch ${tag}` });
    // Every Tuesday from the second one on (and the grid's trailing April Tuesdays); not the first.
    await eventually(() => chips.count()).toBeGreaterThanOrEqual(3);
    await shown(grid.getByRole('cell', { name: `Tuesday, ${day(firstTuesday + 14)}: Tuesday patch ${tag}` }));
    await shown(grid.getByRole('cell', { name: `Tuesday, ${day(firstTuesday)}: no maintenance` }));
    await page.getByRole('button', { name: 'Next month' }).click();
    await page.waitForURL((u) => u.searchParams.get('month') === `${year}-04`);
    await shown(page.getByRole('table', { name: new RegExp(`Maintenance in April ${year}`) }));
    await page.getByRole('table').getByRole('button', { name: `22:00–00:00 Tuesday patch ${tag}` }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Edit maintenance window' });
    await eventually(() => drawer.getByRole('textbox', { name: 'Name' }).inputValue()).toBe(`Tuesday patch ${tag}`);
    await page.keyboard.press('Escape');
    await gone(drawer);
    // The List / Calendar switch runs maintenance.list and maintenance.calendar.
    await page.getByRole('radio', { name: 'List' }).click();
    await page.waitForURL((u) => u.pathname === '/notifications/maintenance' && u.searchParams.get('view') !== 'calendar');
    await shown(page.getByRole('cell', { name: `Tuesday patch ${tag}` }));
    await page.getByRole('radio', { name: 'Calendar' }).click();
    await page.waitForURL((u) => u.searchParams.get('view') === 'calendar');
    await admin.call('DELETE', `maintenance-windows/${created.body.result._id}`);
  });
});
