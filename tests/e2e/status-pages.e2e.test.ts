import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commandLine, gone, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

/**
 * Public status pages (issue 16 §3) in real browsers: an admin composes a page in the drawer (a
 * colliding slug refused beside its field), posts incident updates from the screen and the command
 * line, and a second browser with no session at all reads /status/<slug>: display names, states,
 * 90-day bars, the posts as sanitized markdown, and nothing private. Effects confirmed through the API.
 */
describe('status pages', () => {
  let admin: Browser;
  let visitor: Browser;
  let api: Awaited<ReturnType<typeof apiSession>>;
  const baseURL = inject('baseURL');
  const SECRET_NAME = 'secret-internal-probe-e2e';
  const SECRET_HOST = '127.0.0.1';
  const pageNamed = async (slug: string) => (await api.call('POST', 'status-pages/all', { filter: { slug: { eq: slug } } })).body.result.data[0];

  beforeAll(async () => {
    [admin, visitor, api] = await Promise.all([openBrowser(baseURL), openBrowser(baseURL), apiSession(baseURL)]);
    const check = await api.call('POST', 'checks', { name: SECRET_NAME, kind: 'tcp', host: SECRET_HOST, port: 9, intervalSeconds: 3600, paused: true });
    expect(check.status, JSON.stringify(check.body)).toBe(201);
    expect((await api.call('POST', 'status-pages', { slug: 'taken-e2e', title: 'Taken' })).status).toBe(201);
    await signIn(admin.page);
  });
  afterAll(async () => {
    await admin?.close();
    await visitor?.close();
  });

  it('an admin composes a page in the drawer; a colliding slug is refused beside its field', async () => {
    const { page } = admin;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Status Pages' }).click();
    await shown(page.getByRole('heading', { name: 'Status Pages', level: 1 }));
    await page.getByRole('link', { name: 'Create status page' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create Status Page' });
    await shown(drawer);
    await drawer.getByLabel('Title', { exact: true }).fill('Acme status');
    await drawer.getByLabel('Slug', { exact: true }).fill('taken-e2e');
    await drawer.getByLabel('Group name').fill('Web');
    await drawer.getByRole('button', { name: 'Add item' }).click();
    await drawer.getByRole('button', { name: /Item 1 of group 1/ }).click();
    await page.getByRole('option', { name: `Check · ${SECRET_NAME}` }).click();
    await drawer.getByLabel('Display name').fill('Website');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await shown(drawer.getByText('another status page already has the slug "taken-e2e"'));
    expect((await api.call('POST', 'status-pages/all', {})).body.result.count).toBeGreaterThanOrEqual(1);
    expect(await pageNamed('e2e-acme')).toBeUndefined();
    await drawer.getByLabel('Slug', { exact: true }).fill('e2e-acme');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await shown(page.getByRole('row').filter({ hasText: '/status/e2e-acme' }));
    const created = await pageNamed('e2e-acme');
    expect(created).toMatchObject({ title: 'Acme status', groups: [{ name: 'Web', items: [{ kind: 'check', displayName: 'Website', showAddress: false, name: SECRET_NAME }] }] });
  });

  it('posts an incident update from the screen and from the command line', async () => {
    const { page } = admin;
    await page.getByRole('button', { name: 'Post update on Acme status' }).click();
    const dialog = page.getByRole('dialog', { name: 'New incident on Acme status' });
    await shown(dialog);
    await dialog.getByLabel('Incident title').fill('Checkout errors');
    await dialog
      .getByLabel('Update (markdown)')
      .fill('We see **failed payments**.\n\n<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">\n\n[bad](javascript:window.pwned=3) and [details](https://example.com/incident)');
    await dialog.getByRole('button', { name: 'Post update' }).click();
    await shown(page.getByRole('row').filter({ hasText: 'Checkout errors' }));
    await commandLine(page, 'status.post e2e-acme "A fix is **rolling out**."');
    await shown(page.getByText('Posted an update to'));
    const view = (await api.call('GET', 'public/status/e2e-acme')).body.result;
    expect(view.incidents[0]).toMatchObject({ title: 'Checkout errors', resolvedAt: null });
    expect(view.incidents[0].posts).toHaveLength(2);
  });

  it('anyone reads the page without signing in: states, bars, sanitized posts, nothing private', async () => {
    const { page, context } = visitor;
    expect(await context.cookies()).toEqual([]);
    await page.goto('/status/e2e-acme');
    await shown(page.getByRole('heading', { name: 'Acme status', level: 1 }));
    expect(new URL(page.url()).pathname).toBe('/status/e2e-acme');
    const item = page.getByTestId('status-item').filter({ hasText: 'Website' });
    await shown(item);
    // A paused check is under maintenance; it has no results yet, so every bar is "no data".
    expect(await item.getByTestId('status-state').textContent()).toContain('Maintenance');
    expect(await item.getByTestId('uptime-bars').locator('li').count()).toBe(90);
    const incident = page.getByTestId('incident').filter({ hasText: 'Checkout errors' });
    await shown(incident.getByText('Ongoing'));
    expect(await incident.locator('strong', { hasText: 'failed payments' }).count()).toBe(1);
    expect(await incident.locator('strong', { hasText: 'rolling out' }).count()).toBe(1);
    expect(await page.locator('main script, main img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await incident.locator('a', { hasText: 'bad' }).count()).toBe(0);
    const link = incident.getByRole('link', { name: 'details' });
    expect(await link.getAttribute('href')).toBe('https://example.com/incident');
    expect(await link.getAttribute('rel')).toContain('nofollow');
    const html = await page.content();
    for (const secret of [SECRET_NAME, `${SECRET_HOST}:9`, 'Taken', 'admin']) expect(html, secret).not.toContain(secret);
  });

  it('resolves and deletes from the command line; the visitor sees each, and the history has every run', async () => {
    await commandLine(admin.page, 'status.resolve e2e-acme "Payments work again."');
    await shown(admin.page.getByText(/Resolved\s*Checkout errors on Acme status/));
    const { page } = visitor;
    await page.reload();
    const past = page.getByRole('region', { name: 'Past incidents' }).getByTestId('incident').filter({ hasText: 'Checkout errors' });
    await shown(past.getByText('Payments work again.'));
    await shown(past.getByText('Resolved', { exact: true }));
    expect(await page.getByRole('region', { name: 'Ongoing incidents' }).count()).toBe(0);

    await commandLine(admin.page, 'status.delete e2e-acme');
    const confirm = admin.page.getByRole('alertdialog');
    await shown(confirm.getByText('Delete the status page “e2e-acme” and its incident posts?'));
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => await pageNamed('e2e-acme'), { timeout: 10_000 }).toBeUndefined();
    await page.reload();
    await shown(page.getByRole('heading', { name: 'No status page here' }));
    await expect
      .poll(() => api.historyMissing(['status.create', 'status.post', 'status.resolve', 'status.delete'], ['status.create:ui:ok', 'status.post:ui:ok', 'status.post:cmdline:ok', 'status.resolve:cmdline:ok', 'status.delete:cmdline:ok']), { timeout: 10_000 })
      .toEqual([]);
  });

  it('keeps the list’s search and page size in the URL; its controls and the command line run the list commands', async () => {
    for (const [slug, title] of [['e2e-list-alpha', 'Alpha list'], ['e2e-list-beta', 'Beta list']]) expect((await api.call('POST', 'status-pages', { slug, title })).status).toBe(201);
    const { page } = admin;
    await page.goto('/status-pages');
    const box = page.getByRole('searchbox', { name: 'Search by slug or title' });
    const row = (slug: string) => page.getByRole('row').filter({ hasText: `/status/${slug}` });
    await shown(row('e2e-list-beta'));
    // Typing runs list.search: the text goes into the URL (replacing the entry) and the list follows it.
    await box.fill('e2e-list-alpha');
    await page.waitForURL((u) => u.pathname === '/status-pages' && u.searchParams.get('q') === 'e2e-list-alpha');
    await shown(row('e2e-list-alpha'));
    await gone(row('e2e-list-beta'));
    // A reload keeps it: the box, and the list filtered (the loader warms the same query).
    await page.reload();
    await shown(row('e2e-list-alpha'));
    expect(await row('e2e-list-beta').count()).toBe(0);
    expect(await box.inputValue()).toBe('e2e-list-alpha');
    // list.search from the command line changes the same URL key, and the screen's box shows it.
    await commandLine(page, 'list.search "Beta list"');
    await page.waitForURL((u) => u.searchParams.get('q') === 'Beta list');
    await shown(page.getByText('Status Pages: slug or title contains “Beta list”.'));
    await page.keyboard.press('Escape');
    await shown(row('e2e-list-beta'));
    await gone(row('e2e-list-alpha'));
    await expect.poll(() => box.inputValue()).toBe('Beta list');
    // The pager's size runs list.page-size, keeping the search.
    await page.getByRole('button', { name: /Page size/ }).click();
    await page.getByRole('option', { name: '50 / page' }).click();
    await page.waitForURL((u) => u.searchParams.get('pageSize') === '50' && u.searchParams.get('q') === 'Beta list');
    await shown(row('e2e-list-beta'));
    // An empty search runs list.search with nothing: the whole list again.
    await box.fill('');
    await page.waitForURL((u) => !u.searchParams.has('q') && u.searchParams.get('pageSize') === '50');
    await shown(row('e2e-list-alpha'));
  });
});
