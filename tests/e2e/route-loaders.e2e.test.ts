import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { ADMIN } from './server-process';

const baseURL = inject('baseURL');

/**
 * Issue 13 "Structure": the sign-in form runs `session.signin` through the command gate, and
 * every screen's route loader starts the queries the screen reads (`ensureQueryData` with the
 * same options), so hovering a menu entry (TanStack Router's intent preload) asks the API already.
 */
describe('the command gate signed out, and route loaders', () => {
  let b: Browser;
  beforeAll(async () => {
    b = await openBrowser(baseURL);
  });
  afterAll(async () => b.close());

  it('signs in through session.signin: the server records the form’s run as that command, without the password', async () => {
    const before = Date.now();
    await signIn(b.page);
    const api = await apiSession(baseURL);
    const r = await api.call<{ result: { data: { command: string; source: string; outcome: string; commandLine: string | null; createdAt: string }[] } }>('POST', 'command-history/all', {
      pageNumber: 1,
      pageSize: 20,
      filter: { command: { in: ['session.signin'] } },
      sort: { by: 'createdAt', direction: 'desc' },
    });
    const mine = r.body.result.data.filter((h) => Date.parse(h.createdAt) >= before - 1000);
    expect(mine.length, JSON.stringify(r.body.result.data.slice(0, 3))).toBeGreaterThan(0);
    expect(mine[mine.length - 1]).toMatchObject({ command: 'session.signin', source: 'ui', outcome: 'ok', commandLine: `session.signin --email ${ADMIN.email}` });
    expect(JSON.stringify(r.body)).not.toContain(ADMIN.password);
  });

  it('starts a screen’s list request when its menu entry is only hovered', async () => {
    await b.page.goto('/');
    await shown(b.page.getByRole('heading', { name: 'Dashboard' }));
    // Pinned Widgets first: Servers' loader asks for the monitoring configuration too.
    const menu: [label: string, method: string, path: string][] = [
      ['Pinned Widgets', 'GET', '/api/monitoring/config'],
      ['Servers', 'POST', '/api/servers/metrics/all'],
      ['Checks', 'POST', '/api/checks/all'],
      ['Notification Groups', 'POST', '/api/notification-groups/all'],
      ['Status Pages', 'POST', '/api/status-pages/all'],
      ['Users', 'POST', '/api/users/all'],
    ];
    const nav = b.page.getByRole('navigation', { name: 'Main' });
    for (const [label, method, path] of menu) {
      const asked = b.page.waitForRequest((req) => req.method() === method && new URL(req.url()).pathname === path, { timeout: 10_000 });
      await nav.getByRole('link', { name: label, exact: true }).hover();
      await asked;
      expect(new URL(b.page.url()).pathname, `hovering ${label} only`).toBe('/');
    }
  });

  it('the loader and the screen ask for the same list (one query key), and the screen shows its answer', async () => {
    const lists: string[] = [];
    const onRequest = (req: import('playwright-core').Request) => {
      if (new URL(req.url()).pathname === '/api/users/all') lists.push(req.postData() ?? '');
    };
    b.page.on('request', onRequest);
    try {
      await b.page.goto('/users?pageSize=50');
      await shown(b.page.getByRole('heading', { name: 'Users' }));
      await shown(b.page.getByText(ADMIN.email).first());
    } finally {
      b.page.off('request', onRequest);
    }
    const bodies = lists.filter((body) => body.includes('"pageSize":50'));
    // One key: had the screen built its query differently, two different bodies would be sent.
    // (A second identical request happens only when the screen mounts more than 2 s after the answer.)
    expect(bodies.length).toBeGreaterThan(0);
    expect(new Set(bodies).size, bodies.join('\n')).toBe(1);
  });

  it('the Status Pages loader warms the list for the URL’s search and page size, the query the screen reads', async () => {
    const lists: string[] = [];
    const onRequest = (req: import('playwright-core').Request) => {
      if (new URL(req.url()).pathname === '/api/status-pages/all') lists.push(req.postData() ?? '');
    };
    b.page.on('request', onRequest);
    try {
      await b.page.goto('/status-pages?pageSize=50&q=route-loader-none');
      await shown(b.page.getByRole('heading', { name: 'Status Pages', level: 1 }));
      await shown(b.page.getByText('No status pages match.'));
    } finally {
      b.page.off('request', onRequest);
    }
    // Every request is for the URL's state: none for a first page of 25 without the search.
    expect(lists.length).toBeGreaterThan(0);
    expect(new Set(lists).size, lists.join('\n')).toBe(1);
    expect(JSON.parse(lists[0]!)).toMatchObject({ pageNumber: 1, pageSize: 50, search: 'route-loader-none' });
  });
});
