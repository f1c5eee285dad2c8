import { describe, expect, it } from 'vitest';
import { FIRING_SORT } from '../../../server/contract/alerts';
import { alertsListQuery, dayRange, notificationsSearchSchema } from './notifications-search';

describe('notifications URL state', () => {
  it('fills defaults and drops what is not valid instead of failing', () => {
    expect(notificationsSearchSchema.parse({})).toEqual({ page: 1, pageSize: 25, alertStatus: 'all' });
    const s = notificationsSearchSchema.parse({ page: '0', pageSize: '30', alertStatus: 'burning', since: '2026-13-45', until: 'yesterday', view: 'grid' });
    expect(s).toMatchObject({ page: 1, pageSize: 25, alertStatus: 'all', since: undefined, until: undefined, view: 'cards' });
    expect(notificationsSearchSchema.parse({ page: '3', pageSize: '100', alertStatus: 'snoozed', since: '2026-01-02', view: 'table' })).toMatchObject({ page: 3, pageSize: 100, alertStatus: 'snoozed', since: '2026-01-02', view: 'table' });
  });

  it('builds SPEC’s list query: status, hostname contains, createdAt between, server, newest first', () => {
    const q = alertsListQuery({ page: 1, pageSize: 25, status: 'firing', hostname: ' web ', from: '2026-01-01', to: '2026-01-01' }, 'srv');
    expect(q.sort).toEqual({ by: 'createdAt', direction: 'desc' });
    expect(q.filter).toEqual({
      serverId: { eq: 'srv' },
      status: { eq: 'firing' },
      hostname: { contains: 'web' },
      createdAt: { between: dayRange('2026-01-01', '2026-01-01') },
    });
    for (const status of ['resolved', 'snoozed'] as const) expect(alertsListQuery({ page: 1, pageSize: 25, status }).sort).toEqual({ by: 'createdAt', direction: 'desc' });
  });

  it('under All, opens on what is firing (the sort `firing`), on the page and a server’s tab, filters kept', () => {
    expect(alertsListQuery({ page: 2, pageSize: 50, status: 'all' })).toEqual({ pageNumber: 2, pageSize: 50, sort: { by: FIRING_SORT, direction: 'desc' }, filter: {} });
    const q = alertsListQuery({ page: 1, pageSize: 25, status: 'all', hostname: 'db', from: '2026-01-01' }, 'srv');
    expect(q).toEqual({
      pageNumber: 1,
      pageSize: 25,
      sort: { by: 'firing', direction: 'desc' },
      filter: { serverId: { eq: 'srv' }, hostname: { contains: 'db' }, createdAt: { between: dayRange('2026-01-01', undefined) } },
    });
  });

  it('takes whole local days, swaps a reversed range and leaves a missing end open', () => {
    const [a, b] = dayRange('2026-03-05', '2026-03-04')!;
    expect(new Date(a).getTime()).toBe(new Date('2026-03-04T00:00:00').getTime());
    expect(new Date(b).getTime()).toBe(new Date('2026-03-06T00:00:00').getTime() - 1);
    expect(dayRange('2026-03-05', undefined)![1]).toBe('9999-12-31T23:59:59.999Z');
    expect(dayRange(undefined, undefined)).toBeUndefined();
  });
});
