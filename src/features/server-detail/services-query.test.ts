import { describe, expect, it } from 'vitest';
import { liveRefetchMs } from './live';
import { servicesListQuery } from './services-tab';

describe('servicesListQuery', () => {
  it('asks for this server’s services, newest first, with the page of the URL', () => {
    expect(servicesListQuery('s1', { q: '', status: 'all', page: 2, pageSize: 50 })).toEqual({
      pageNumber: 2,
      pageSize: 50,
      sort: { by: 'createdAt', direction: 'desc' },
      filter: { serverId: { eq: 's1' } },
    });
  });

  it('adds name contains and status equals only when set (SPEC §7 prometheus/get-services)', () => {
    expect(servicesListQuery('s1', { q: '  ssh ', status: 'down', page: 1, pageSize: 25 }).filter).toEqual({
      serverId: { eq: 's1' },
      name: { contains: 'ssh' },
      status: { eq: 'down' },
    });
  });
});

describe('liveRefetchMs', () => {
  it('follows the scrape interval, at least 5 s, 15 s until it is known', () => {
    expect(liveRefetchMs(30)).toBe(30_000);
    expect(liveRefetchMs(2)).toBe(5_000);
    expect(liveRefetchMs(undefined)).toBe(15_000);
  });
});
