import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCheckTargets, type CheckTargets } from '../check-targets';
import { commandLine, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

/**
 * Checks (issue 16) in the browser, against the shared server (its check runner is on) and
 * local HTTP targets this file starts: create from the drawer, watch it come up, run now, pause,
 * a bad URL named next to its field, and the command line. Effects are confirmed through the API.
 */
describe('checks', () => {
  let b: Browser;
  let targets: CheckTargets;
  let admin: Awaited<ReturnType<typeof apiSession>>;
  const baseURL = inject('baseURL');
  const checkNamed = async (name: string) => (await admin.call('POST', 'checks/all', { filter: { name: { eq: name } } })).body.result.data[0];

  beforeAll(async () => {
    [b, targets, admin] = await Promise.all([openBrowser(baseURL), startCheckTargets(), apiSession(baseURL)]);
    await signIn(b.page);
  });
  afterAll(async () => {
    await b?.close();
    await targets?.close();
  });

  it('creates a check in the drawer, refuses a bad URL and a metadata address beside the field, and shows the check come up', async () => {
    const { page } = b;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Checks' }).click();
    await shown(page.getByRole('heading', { name: 'Checks', level: 1 }));
    await page.getByRole('link', { name: 'Add check' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create Check' });
    await shown(drawer);
    await drawer.getByLabel('Name', { exact: true }).fill('Shop front');
    await drawer.getByLabel('URL', { exact: true }).fill('ftp://files.example.com/');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await shown(drawer.getByText('the scheme "ftp" is not supported: use http or https'));
    expect(await checkNamed('Shop front')).toBeUndefined();
    // The outbound policy's refusal, said beside the field too (issue 25).
    await drawer.getByLabel('URL', { exact: true }).fill('http://[::ffff:169.254.169.254]/latest/meta-data/');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await shown(drawer.getByText('a check may not reach 169.254.169.254: it is a link-local address (cloud instance metadata lives here)'));
    expect(await checkNamed('Shop front')).toBeUndefined();
    await drawer.getByLabel('URL', { exact: true }).fill(`${targets.httpUrl}/ok`);
    await drawer.getByLabel('Keyword text').fill('operational');
    await drawer.getByLabel('Interval (seconds)').fill('10');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/checks\/show\//);
    await shown(page.getByRole('heading', { name: 'Shop front', level: 1 }));
    // The runner picks a new check up at once; the page refreshes every 10 s.
    await shown(page.getByTestId('check-state').filter({ hasText: 'Up' }), 25_000);
    const created = await checkNamed('Shop front');
    expect(created).toMatchObject({ kind: 'http', keyword: 'operational', intervalSeconds: 10, state: 'up' });
    await page.getByRole('button', { name: 'Run now' }).click();
    await shown(page.getByRole('table', { name: 'Last results' }).getByRole('cell', { name: 'Up', exact: true }));
    await shown(page.getByRole('list', { name: 'Uptime per day over the last 90 days' }));
  });

  it('pauses from the detail, and the list and the history say so', async () => {
    const { page } = b;
    const toggle = page.getByRole('switch', { name: 'Paused' });
    expect(await toggle.isChecked()).toBe(false);
    await page.locator('label', { hasText: 'Paused' }).click();
    await expect.poll(async () => (await checkNamed('Shop front')).paused, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await page.getByRole('link', { name: 'Checks', exact: true }).first().click();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Shop front' }) });
    await shown(row.getByText('Paused'));
    await shown(row.getByRole('button', { name: 'Resume Shop front' }));
    expect(await admin.historyMissing(['check.create', 'check.pause', 'check.run-now'], ['check.create:ui:ok', 'check.pause:ui:ok', 'check.run-now:ui:ok'])).toEqual([]);
  });

  it('creates, shows and deletes a failing check from the command line', async () => {
    const { page } = b;
    await commandLine(page, `check.create "Broken API" --url ${targets.httpUrl}/status/503 --interval 10`);
    await shown(page.getByText('Created HTTP(S) check'));
    await commandLine(page, 'check.run-now "Broken API"');
    await shown(page.getByText(/is down: down · \d+ ms · HTTP 503 · HTTP 503, expected 200-299/));
    await commandLine(page, 'check.show "Broken API"');
    await page.waitForURL(/\/checks\/show\//);
    await shown(page.getByTestId('check-state').filter({ hasText: 'Down' }));
    await shown(page.getByText('HTTP 503, expected 200-299').first());
    await commandLine(page, 'check.delete "Broken API"');
    const confirm = page.getByRole('alertdialog');
    await shown(confirm.getByText('Delete the check “Broken API” with its results, 90-day uptime and alerts?'));
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => await checkNamed('Broken API'), { timeout: 10_000 }).toBeUndefined();
  });
});
