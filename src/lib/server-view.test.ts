import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { panelHeight, panelsFor, tabPanels } from './server-panels';
import { resolveServerView, serverDetailHref, serverDetailSearchSchema, serverIdFromPath, tabsFor } from './server-view';

const parse = (v: unknown) => z.parse(serverDetailSearchSchema, v);

describe('server detail search', () => {
  it('drops invalid values instead of failing', () => {
    expect(parse({ tab: 'nope', range: '2h', tz: 'mars', refresh: '1s', from: 'x', status: 'maybe', pageSize: 13 })).toEqual({});
    expect(parse({ tab: 'cpu', range: '3h', tz: 'local', refresh: '30s', from: '5', to: 9, q: 123, status: 'down', page: '2', pageSize: '50' })).toEqual({
      tab: 'cpu',
      range: '3h',
      tz: 'local',
      refresh: '30s',
      from: 5,
      to: 9,
      q: '123',
      status: 'down',
      page: 2,
      pageSize: 50,
    });
  });

  it('fills the defaults by OS (SPEC §2)', () => {
    expect(resolveServerView({}, 'linux')).toEqual({ tab: 'overview', range: '1h', tz: 'utc', refresh: '10s', q: '', status: 'all', page: 1, pageSize: 25 });
    expect(resolveServerView({}, 'windows')).toMatchObject({ tab: 'cpu', refresh: '5m' });
    expect(resolveServerView({ tab: 'overview' }, 'windows').tab).toBe('cpu');
  });

  it('keeps a custom range only as a valid pair', () => {
    expect(resolveServerView({ range: 'custom', from: 1000, to: 2000 }, 'linux')).toMatchObject({ range: 'custom', from: 1000, to: 2000 });
    expect(resolveServerView({ range: 'custom', from: 1000 }, 'linux')).toMatchObject({ range: '1h' });
    expect(resolveServerView({ range: 'custom', from: 1000 }, 'linux').from).toBeUndefined();
  });

  it('writes hrefs the router reads back as strings', () => {
    expect(serverDetailHref('abc', { tab: 'cpu', range: 'custom', from: 1000, to: 2000, q: '', status: undefined })).toBe('/servers/show/abc?tab=cpu&range=custom&from=1000&to=2000');
    expect(serverDetailHref('a b', { q: '123' })).toBe('/servers/show/a%20b?q=%22123%22');
    expect(serverDetailHref('x', { q: 'nginx' })).toBe('/servers/show/x?q=nginx');
  });

  it('finds the server id of a detail path only', () => {
    expect(serverIdFromPath('/servers/show/abc')).toBe('abc');
    expect(serverIdFromPath('/servers/show/a%20b/')).toBe('a b');
    expect(serverIdFromPath('/servers/edit/abc')).toBeNull();
    expect(serverIdFromPath('/servers')).toBeNull();
  });
});

describe('tabs and panels', () => {
  it('has Overview on Linux only', () => {
    expect(tabsFor('linux')).toEqual(['overview', 'cpu', 'memory', 'network', 'disk', 'services', 'notifications', 'alerts-config']);
    expect(tabsFor('windows')).not.toContain('overview');
  });

  it('lists SPEC panel ids per tab, 156 once on the Linux Disk tab', () => {
    expect(tabPanels.linux.cpu).toEqual([14, 19, 20, 77]);
    expect(tabPanels.linux.disk).toEqual([154, 23, 152, 156, 229, 43, 42]);
    expect(tabPanels.windows.network).toEqual([17, 42, 11, 29, 10]);
    expect(panelsFor('windows', 'memory').map((p) => p.title)).toEqual(['RAM', 'Memory Usage', 'Total SWAP', 'Memory Details']);
    expect(panelsFor('linux', 'services')).toEqual([]);
  });

  it('sizes tiles 200, time series 400, many-series ones 600', () => {
    expect(panelHeight('stat')).toBe(200);
    expect(panelHeight('bargauge')).toBe(200);
    expect(panelHeight('timeseries')).toBe(400);
    expect(panelHeight('timeseries', true)).toBe(600);
  });
});
