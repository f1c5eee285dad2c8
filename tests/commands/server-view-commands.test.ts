import { describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { NO_SERVER_DETAIL } from '../../commands/server-view/current-view';
import type { Role } from '../../server/contract/permissions';
import type { Server } from '../../server/contract/servers';
import { ApiError, type Api } from '../../src/api/client';
import { queryKeys } from '../../src/api/query-keys';
import { fakeServer } from './fake-server';

const ID = '00000000-0000-4000-8000-00000000000a';
const OTHER = '00000000-0000-4000-8000-00000000000b';

function server(id: string, hostname: string, suppressAlarm: 'yes' | 'no' = 'no'): Server {
  return fakeServer({ _id: id, hostname, suppressAlarm });
}

function setup(options: { pathname?: string; search?: Record<string, unknown>; role?: Role; suppressAlarm?: 'yes' | 'no' } = {}) {
  const fleet = [server(ID, 'web-01', options.suppressAlarm), server(OTHER, 'db-01')];
  const calls: { method: string; path: string; body?: any }[] = [];
  const api = {
    get: vi.fn(async (path: string) => {
      calls.push({ method: 'GET', path });
      const found = fleet.find((s) => path === `servers/${s._id}`);
      if (found) return { result: found };
      throw new ApiError(404, { message: 'Not found' });
    }),
    post: vi.fn(async (path: string, body?: any) => {
      calls.push({ method: 'POST', path, body });
      if (path !== 'servers/all') return { result: {} };
      const rows = fleet.filter((s) => s.hostname === body?.filter?.hostname?.eq || (body?.search && s.hostname.includes(body.search)));
      return { result: { data: rows, count: rows.length } };
    }),
    patch: vi.fn(async (path: string, body?: any) => {
      calls.push({ method: 'PATCH', path, body });
      const found = fleet.find((s) => path === `servers/${s._id}`)!;
      return { result: { ...found, ...body } };
    }),
    delete: vi.fn(),
  } as unknown as Api;
  const navigate = vi.fn();
  const invalidate = vi.fn(async () => {});
  const role = options.role ?? 'admin';
  const ctx: CommandContext = {
    api,
    user: { _id: 'u1', username: role, email: `${role}@x`, role },
    navigate,
    invalidate,
    confirm: vi.fn(async () => true),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(async () => ({})),
    ...(options.pathname ? { location: () => ({ pathname: options.pathname!, search: options.search ?? {} }) } : {}),
  };
  const registry = createAppRegistry();
  const run = (id: string, input: unknown) => registry.dispatch(id, input, { source: 'cmdline', ctx });
  const href = () => navigate.mock.calls.at(-1)?.[0] as string;
  const search = () => Object.fromEntries(new URL(href(), 'http://x').searchParams);
  return { registry, ctx, run, navigate, invalidate, calls, href, search };
}

const onDetail = (search: Record<string, unknown> = {}) => ({ pathname: `/servers/show/${ID}`, search });
const VIEW_COMMANDS = ['server.tab', 'server.time-range', 'server.timezone', 'server.refresh-interval', 'server.services-filter', 'server.refresh-view'];

describe('view-state commands', () => {
  it.each(VIEW_COMMANDS)('%s says why it cannot run away from a server detail', (id) => {
    const { registry, ctx } = setup({ pathname: '/servers' });
    expect(registry.check(id, ctx)).toBe(NO_SERVER_DETAIL);
    const bare = setup();
    expect(bare.registry.check(id, bare.ctx)).toBe(NO_SERVER_DETAIL);
    const open = setup(onDetail());
    expect(open.registry.check(id, open.ctx)).toBe(true);
  });

  it('server.time-range sets a preset, keeps the tab and drops a custom pair', async () => {
    const { run, href } = setup(onDetail({ tab: 'cpu', range: 'custom', from: 1, to: 2 }));
    const result = await run('server.time-range', { range: '3h' });
    expect(href()).toBe(`/servers/show/${ID}?tab=cpu&range=3h`);
    expect(result.message).toContain('Last 3 Hours');
  });

  it('server.time-range reads zoneless custom times in the zone the charts show', async () => {
    const utc = setup(onDetail());
    await utc.run('server.time-range', { from: '2026-11-23T09:00', to: '2026-11-23 12:00' });
    expect(utc.search()).toEqual({ range: 'custom', from: String(Date.UTC(2026, 10, 23, 9)), to: String(Date.UTC(2026, 10, 23, 12)) });
    const local = setup(onDetail({ tz: 'local' }));
    await local.run('server.time-range', { range: 'custom', from: '2026-11-23T09:00', to: '2026-11-23T12:00' });
    expect(local.search()).toMatchObject({ tz: 'local', from: String(new Date(2026, 10, 23, 9).getTime()) });
  });

  it('server.time-range refuses a half pair, a preset with dates, an end before the start and unreadable dates', async () => {
    const { run, navigate } = setup(onDetail());
    await expect(run('server.time-range', { from: '2026-11-23T09:00' })).rejects.toThrow(/both --from and --to/);
    await expect(run('server.time-range', { range: '1h', from: '2026-11-23T09:00', to: '2026-11-23T10:00' })).rejects.toThrow(/preset range takes no/);
    await expect(run('server.time-range', { from: '2026-11-23T12:00', to: '2026-11-23T09:00' })).rejects.toThrow('The end must be after the start.');
    await expect(run('server.time-range', { from: 'soon', to: '2026-11-23T09:00' })).rejects.toThrow(/Cannot read "soon"/);
    await expect(run('server.time-range', {})).rejects.toThrow(/Choose a range/);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('server.timezone switches and flips, UTC leaving the URL clean', async () => {
    const a = setup(onDetail({ tab: 'memory' }));
    await a.run('server.timezone', { tz: 'local' });
    expect(a.href()).toBe(`/servers/show/${ID}?tab=memory&tz=local`);
    const b = setup(onDetail({ tz: 'local' }));
    await b.run('server.timezone', {});
    expect(b.href()).toBe(`/servers/show/${ID}`);
  });

  it('server.refresh-interval takes only SPEC intervals', async () => {
    const { run, href } = setup(onDetail());
    await run('server.refresh-interval', { interval: '1m' });
    expect(href()).toBe(`/servers/show/${ID}?refresh=1m`);
    await expect(run('server.refresh-interval', { interval: '2s' })).rejects.toThrow();
  });

  it('server.services-filter opens the Services tab on page 1 and keeps what it is not given', async () => {
    const { run, search } = setup(onDetail({ tab: 'cpu', q: 'ssh', page: 3, range: '6h' }));
    const result = await run('server.services-filter', { status: 'down' });
    expect(search()).toEqual({ tab: 'services', q: 'ssh', status: 'down', range: '6h' });
    expect(result.message).toBe('Services: **Down**, name contains "ssh".');
    const again = setup(onDetail({ tab: 'services', q: 'ssh', status: 'down' }));
    await again.run('server.services-filter', { status: 'all', name: '123' });
    expect(again.href()).toBe(`/servers/show/${ID}?tab=services&q=%22123%22`);
    const clear = setup(onDetail({ tab: 'services', q: 'ssh', status: 'up' }));
    await clear.run('server.services-filter', {});
    expect(clear.href()).toBe(`/servers/show/${ID}?tab=services`);
  });

  it('server.tab opens a tab', async () => {
    const { run, href } = setup(onDetail({ range: '12h' }));
    await run('server.tab', { tab: 'alerts-config' });
    expect(href()).toBe(`/servers/show/${ID}?range=12h&tab=alerts-config`);
    await expect(run('server.tab', { tab: 'graphs' })).rejects.toThrow();
  });
});

describe('server.refresh-view', () => {
  it("refetches the open server's record, figures, up status, services and charts, and nothing else", async () => {
    const { run, invalidate, navigate } = setup(onDetail({ tab: 'services' }));
    await run('server.refresh-view', {});
    expect(invalidate.mock.calls.map((c) => (c as unknown[])[0])).toEqual([
      queryKeys.servers.one(ID),
      queryKeys.servers.usage(ID),
      queryKeys.servers.upstatus(ID),
      ['servers', 'services'],
      ['servers', 'chart', ID],
    ]);
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('server.switch', () => {
  it('opens another server by hostname, keeping the view but not the services filters', async () => {
    const { run, href } = setup(onDetail({ tab: 'disk', range: '24h', tz: 'local', refresh: '1m', q: 'ssh', status: 'up', page: 2 }));
    const result = await run('server.switch', { server: 'db-01' });
    expect(href()).toBe(`/servers/show/${OTHER}?tab=disk&range=24h&tz=local&refresh=1m`);
    expect(result.message).toContain('db-01');
  });

  it('works from anywhere and says when nothing matches', async () => {
    const { run, href } = setup();
    await run('server.switch', { server: OTHER });
    expect(href()).toBe(`/servers/show/${OTHER}`);
    await expect(run('server.switch', { server: 'nope' })).rejects.toThrow('No server matches "nope"');
  });
});

describe('server.toggle-maintenance', () => {
  it('flips suppressAlarm and refetches usage and up status (SPEC §4)', async () => {
    const { run, calls, invalidate } = setup({ suppressAlarm: 'no' });
    const result = await run('server.toggle-maintenance', { server: 'web-01' });
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([{ method: 'PATCH', path: `servers/${ID}`, body: { suppressAlarm: 'yes' } }]);
    expect(invalidate).toHaveBeenCalledWith(queryKeys.servers.usage(ID));
    expect(invalidate).toHaveBeenCalledWith(queryKeys.servers.upstatus(ID));
    expect(result.message).toContain('Maintenance **on**');
  });

  it('sets an explicit mode and offers the inverse', async () => {
    const { run, calls, registry } = setup({ suppressAlarm: 'yes' });
    const result = await run('server.toggle-maintenance', { server: ID, mode: 'off' });
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ suppressAlarm: 'no' });
    expect(registry.get('server.toggle-maintenance')!.inverse!({ server: ID }, result)).toEqual({ id: 'server.toggle-maintenance', input: { server: ID, mode: 'on' } });
  });

  it('is refused for the user role without touching the server', async () => {
    const { run, calls } = setup({ role: 'user' });
    await expect(run('server.toggle-maintenance', { server: ID, mode: 'on' })).rejects.toThrow('Only Admin or sysadmin accounts can do this.');
    expect(calls).toEqual([]);
  });
});
