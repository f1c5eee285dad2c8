import { describe, expect, it, vi } from 'vitest';
import { allCommands, createAppRegistry } from '../../commands';
import { completeCommandLine } from '../../commands/complete-command-line';
import type { CommandContext } from '../../commands/define-command';
import { dayOf } from '../../commands/list/list-go-commands';
import { listViews } from '../../commands/list/list-views';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { groupsSearchSchema } from '../../src/features/notification-groups/groups-search';
import { serverSortFields } from '../../src/features/servers/servers-search';
import { usersSearchSchema } from '../../src/features/users/users-search';
import { checkSortFields, checksSearchSchema } from '../../src/features/checks/checks-search';
import { statusPagesListQuery, statusPagesSearchSchema } from '../../src/features/status-pages/status-pages-query';
import type { Api } from '../../src/api/client';

const registry = createAppRegistry();

function context(pathname: string, search: Record<string, unknown> = {}) {
  const navigate = vi.fn();
  const open = vi.fn();
  const ctx = {
    api: {} as Api,
    user: { _id: 'u1', username: 'ann', email: 'ann@example.com', role: 'user' },
    navigate,
    invalidate: async () => {},
    confirm: async () => true,
    ui: { colorMode: () => 'light', setColorMode: () => {}, open },
    session: { signedIn: () => {}, signedOut: () => {} },
    run: async () => ({}),
    location: () => ({ pathname, search }),
  } as unknown as CommandContext;
  return { ctx, navigate, open };
}

const line = async (ctx: CommandContext, text: string) => {
  const parsed = parseCommandLine(text, registry.get);
  return registry.dispatch(parsed.id, parsed.input, { source: 'cmdline', ctx });
};

describe('list-view commands (issue 13: every list action a command)', () => {
  it('switch the open list to table or cards, keeping its other state', async () => {
    const { ctx, navigate } = context('/servers', { page: 3, pageSize: 50, hostname: 'web' });
    await line(ctx, 'view.table');
    expect(navigate.mock.lastCall?.[0]).toBe('/servers?page=3&pageSize=50&hostname=web&view=table');
    const users = context('/users/show/abc', { view: 'table', search: 'ann' });
    await line(users.ctx, 'view.cards');
    expect(users.navigate.mock.lastCall?.[0]).toBe('/users?view=cards&search=ann');
    // On the list the entry is replaced (as the screen's own controls do); from a drawer it is a new one.
    expect(navigate.mock.lastCall?.[1]).toEqual({ replace: true });
    expect(users.navigate.mock.lastCall?.[1]).toEqual({ replace: false });
    // SPEC §2 Notifications: switching view clears the filters, the page size stays.
    const alerts = context('/notifications', { alertStatus: 'firing', hostname: 'db', pageSize: 50, view: 'cards' });
    await line(alerts.ctx, 'view.table');
    expect(alerts.navigate.mock.lastCall?.[0]).toBe('/notifications?view=table&pageSize=50');
  });

  it('are refused with the lists they work on elsewhere', async () => {
    const { ctx } = context('/notification-groups');
    await expect(line(ctx, 'view.table')).rejects.toThrow('Open a list first: Servers, Notifications or Users.');
    await expect(line(context('/').ctx, 'list.search web')).rejects.toThrow('Open a list first: Servers, Notifications, Users, Notification Groups, Checks or Status Pages.');
  });

  it('search, page size and sort write the keys the screens read, from page 1', async () => {
    const groups = context('/notification-groups', { page: 2, sortBy: 'name', sortDir: 'asc' });
    await line(groups.ctx, 'list.search "data team"');
    expect(groups.navigate.mock.lastCall?.[0]).toBe('/notification-groups?sortBy=name&sortDir=asc&name=data+team');
    await line(groups.ctx, 'list.page-size 75');
    expect(groups.navigate.mock.lastCall?.[0]).toBe('/notification-groups?sortBy=name&sortDir=asc&pageSize=75');
    // The same column again flips it, as a header click does.
    await line(groups.ctx, 'list.sort name');
    expect(groups.navigate.mock.lastCall?.[0]).toBe('/notification-groups?sortBy=name&sortDir=desc');
    await line(groups.ctx, 'list.sort Updated asc');
    expect(groups.navigate.mock.lastCall?.[0]).toBe('/notification-groups?sortBy=updatedAt&sortDir=asc');
    await expect(line(groups.ctx, 'list.sort cpu')).rejects.toThrow('Column: “cpu” is not a column Notification Groups sorts by. Choose one of: createdAt (Created), updatedAt (Updated), name.');
    await expect(line(groups.ctx, 'list.page-size 30')).rejects.toThrow(/Page size: “30” is not one of the choices\. Choose one of: 25 \(25 \/ page\)/);
  });

  it('servers.search and alerts.filter open their list from anywhere', async () => {
    const { ctx, navigate } = context('/');
    await line(ctx, 'servers.search web');
    expect(navigate.mock.lastCall?.[0]).toBe('/servers?hostname=web');
    const now = new Date();
    await line(ctx, 'alerts.filter --status firing --from -1h --host db');
    expect(navigate.mock.lastCall?.[0]).toBe(`/notifications?alertStatus=firing&hostname=db&since=${dayOf('-1h', now)}`);
    await expect(line(ctx, 'alerts.filter --from lately')).rejects.toThrow('Filter alerts: From must be a day (2026-11-24), today, yesterday, now or a time ago like -1h, -7d.');
    // On the list, given filters change and the others stay; none clears all.
    const open = context('/notifications', { alertStatus: 'firing', hostname: 'db', view: 'table' });
    await line(open.ctx, 'alerts.filter --status all');
    expect(open.navigate.mock.lastCall?.[0]).toBe('/notifications?hostname=db&view=table');
    await line(open.ctx, 'alerts.filter');
    expect(open.navigate.mock.lastCall?.[0]).toBe('/notifications?view=table');
  });

  it('reads days as the date filter does', () => {
    const now = new Date(2026, 10, 25, 0, 30);
    expect(dayOf('2026-11-20', now)).toBe('2026-11-20');
    expect(dayOf('today', now)).toBe('2026-11-25');
    expect(dayOf('-1h', now)).toBe('2026-11-24');
    expect(dayOf('-2w', now)).toBe('2026-11-11');
    expect(dayOf('soon', now)).toBeUndefined();
  });

  it('sorts by the columns the screens’ URL schemas accept', () => {
    const sortOf = (key: string) => listViews.find((l) => l.key === key)!.sort.map((c) => c.value);
    expect(sortOf('servers')).toEqual([...serverSortFields]);
    expect(sortOf('users')).toEqual(usersSearchSchema.shape.sortBy.def.innerType.def.innerType.options);
    expect(sortOf('groups')).toEqual(groupsSearchSchema.shape.sortBy.def.innerType.def.innerType.options);
    expect(sortOf('checks')).toEqual([...checkSortFields]);
    // The Status Pages list has one order: no column in the commands, no sort key in its URL.
    expect(sortOf('status-pages')).toEqual([]);
    expect(Object.keys(statusPagesSearchSchema.shape).sort()).toEqual(['page', 'pageSize', 'q']);
  });

  it('list.filter sets a list’s other filters, with their choices; list.clear-filters clears them and the search', async () => {
    const users = context('/users', { view: 'table', search: 'a', page: 3 });
    await line(users.ctx, 'list.filter role admin');
    expect(users.navigate.mock.lastCall?.[0]).toBe('/users?view=table&search=a&role=admin');
    await line(users.ctx, 'list.filter Email "@example.com"');
    expect(users.navigate.mock.lastCall?.[0]).toBe('/users?view=table&search=a&email=%40example.com');
    await expect(line(users.ctx, 'list.filter phone 555')).rejects.toThrow('Filter: “phone” is not a filter of Users. Choose one of: username (Name), email, role.');
    const checks = context('/checks', { q: 'web', state: 'down', sortBy: 'name' });
    await line(checks.ctx, 'list.filter state Paused');
    expect(checks.navigate.mock.lastCall?.[0]).toBe('/checks?q=web&state=paused&sortBy=name');
    await line(checks.ctx, 'list.filter state');
    expect(checks.navigate.mock.lastCall?.[0]).toBe('/checks?q=web&sortBy=name');
    await expect(line(checks.ctx, 'list.filter state sideways')).rejects.toThrow('State: “sideways” is not a choice. Choose one of: up, down, paused.');
    await line(checks.ctx, 'list.clear-filters');
    expect(checks.navigate.mock.lastCall?.[0]).toBe('/checks?sortBy=name');
    // The URL keys are the ones the Checks screen reads.
    expect(checksSearchSchema.parse({ state: 'paused', q: 'web' })).toMatchObject({ state: 'paused', q: 'web' });
    await expect(line(context('/notification-groups').ctx, 'list.filter name x')).rejects.toThrow('Open a list first: Users or Checks.');
  });

  it('knows a list’s drawers from the pages beside it', async () => {
    // A check's own page and the Silences screen are not the Checks or Notifications lists.
    await expect(line(context('/checks/show/abc').ctx, 'list.search web')).rejects.toThrow(/Open a list first/);
    await expect(line(context('/notifications/silences').ctx, 'list.search web')).rejects.toThrow(/Open a list first/);
    await expect(line(context('/notifications/integrations').ctx, 'list.search web')).rejects.toThrow(/Open a list first/);
    const drawer = context('/checks/edit/abc', { q: 'web' });
    await line(drawer.ctx, 'list.search db');
    expect(drawer.navigate.mock.lastCall?.[0]).toBe('/checks?q=db');
    const alert = context('/notifications/show/abc', { hostname: 'web' });
    await line(alert.ctx, 'list.search db');
    expect(alert.navigate.mock.lastCall?.[0]).toBe('/notifications?hostname=db');
  });

  it('the Status Pages list: search and page size in its URL, from its drawers too; no sort, filters or views', async () => {
    const list = context('/status-pages', { page: 3, pageSize: 50 });
    await line(list.ctx, 'list.search acme');
    expect(list.navigate.mock.lastCall).toEqual(['/status-pages?pageSize=50&q=acme', { replace: true }]);
    await line(list.ctx, 'list.page-size 75');
    expect(list.navigate.mock.lastCall?.[0]).toBe('/status-pages?pageSize=75');
    const searched = context('/status-pages', { q: 'acme', page: 2 });
    await line(searched.ctx, 'list.search');
    expect(searched.navigate.mock.lastCall?.[0]).toBe('/status-pages');
    const drawer = context('/status-pages/edit/abc', { q: 'acme', pageSize: 25 });
    await line(drawer.ctx, 'list.search shop');
    expect(drawer.navigate.mock.lastCall).toEqual(['/status-pages?q=shop&pageSize=25', { replace: false }]);
    await line(context('/status-pages/create').ctx, 'list.page-size 100');
    await expect(line(list.ctx, 'list.sort title')).rejects.toThrow('Open a list first: Servers, Users, Notification Groups or Checks.');
    await expect(line(list.ctx, 'view.table')).rejects.toThrow('Open a list first: Servers, Notifications or Users.');
    await expect(line(list.ctx, 'list.filter title x')).rejects.toThrow('Open a list first: Users or Checks.');
    // The screen reads back what the commands write, and asks the API for it.
    const state = statusPagesSearchSchema.parse(Object.fromEntries(new URLSearchParams('pageSize=50&q=acme&page=2')));
    expect(state).toEqual({ page: 2, pageSize: 50, q: 'acme' });
    expect(statusPagesListQuery(state)).toEqual({ pageNumber: 2, pageSize: 50, sort: { by: 'createdAt', direction: 'desc' }, search: 'acme' });
    expect(statusPagesSearchSchema.parse({ pageSize: '30', page: '-1' })).toEqual({ page: 1, pageSize: 25 });
  });
});

describe('history.show with filters (issue 13: the history panel’s filters are a command)', () => {
  it('opens the panel with the filters it is given; without any, every run', async () => {
    const { ctx, open } = context('/servers');
    await line(ctx, 'history.show --outcome error');
    expect(open).toHaveBeenLastCalledWith('history', { history: { outcome: 'error' } });
    await line(ctx, 'history.show --command "server." --user " ann " --outcome refused');
    expect(open).toHaveBeenLastCalledWith('history', { history: { command: 'server.', username: 'ann', outcome: 'refused' } });
    await line(ctx, 'history.show');
    expect(open).toHaveBeenLastCalledWith('history', { history: {} });
    // Blank boxes are no filter, as the panel sends them.
    await registry.dispatch('history.show', { command: '  ', user: '' }, { source: 'ui', ctx });
    expect(open).toHaveBeenLastCalledWith('history', { history: {} });
    await expect(line(ctx, 'history.show --outcome weird')).rejects.toThrow(/^Show command history: Outcome: “weird” is not one of the choices\. Choose one of: ok, error, cancelled, refused\.$/);
    await expect(registry.dispatch('history.show', { command: 'x'.repeat(501) }, { source: 'ui', ctx })).rejects.toThrow(/^Show command history: Command/);
  });

  it('is found with its arguments: named in the palette, completed on the command line', async () => {
    const def = registry.get('history.show')!;
    expect(def.args?.map((a) => [a.name, a.label, a.optional])).toEqual([
      ['command', 'Command', true],
      ['user', 'User', true],
      ['outcome', 'Outcome', true],
      // Issue 24 §4: a time range, Opsdeck's events, sign-ins and views.
      ['since', 'Since', true],
      ['system', "Opsdeck's events", true],
      ['signins', 'Sign-ins and views', true],
    ]);
    expect(def.args?.[2]?.options?.map((o) => o.value)).toEqual(['ok', 'error', 'cancelled', 'refused']);
    const noValues = async () => [] as string[];
    expect((await completeCommandLine('history.show --', allCommands, noValues)).candidates).toEqual(['--command', '--user', '--outcome', '--since', '--system', '--signins']);
    expect((await completeCommandLine('history.show --outcome er', allCommands, noValues)).line).toBe('history.show --outcome error ');
  });
});
