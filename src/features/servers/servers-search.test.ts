import { describe, expect, it } from 'vitest';
import { serversListQuery, serversSearchSchema } from './servers-search';

describe('servers URL state', () => {
  it('defaults to page 1 of 25 sorted by createdAt descending (SPEC §2, §9)', () => {
    expect(serversListQuery(serversSearchSchema.parse({}))).toEqual({ pageNumber: 1, pageSize: 25, sort: { by: 'createdAt', direction: 'desc' } });
  });
  it('turns the hostname search into a contains filter and keeps the sort', () => {
    const q = serversListQuery(serversSearchSchema.parse({ page: '3', pageSize: '100', hostname: ' web ', sortBy: 'cpuUsage', sortDir: 'asc' }));
    expect(q).toEqual({ pageNumber: 3, pageSize: 100, sort: { by: 'cpuUsage', direction: 'asc' }, filter: { hostname: { contains: 'web' } } });
  });
  it('repairs a hand-edited URL instead of failing', () => {
    const s = serversSearchSchema.parse({ page: '0', pageSize: '30', sortBy: 'password', sortDir: 'up', view: 'grid' });
    expect(s).toMatchObject({ page: 1, pageSize: 25, sortBy: 'createdAt', sortDir: 'desc', view: 'cards' });
  });
});
