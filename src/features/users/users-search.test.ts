import { describe, expect, it } from 'vitest';
import { usersListQuery, usersSearchSchema } from './users-search';

describe('users URL state', () => {
  it('defaults to page 1 of 25 sorted by createdAt ascending (SPEC §7)', () => {
    expect(usersListQuery(usersSearchSchema.parse({}))).toEqual({ pageNumber: 1, pageSize: 25, sort: { by: 'createdAt', direction: 'asc' } });
  });
  it('turns column filters into contains filters and keeps the search', () => {
    const q = usersListQuery(usersSearchSchema.parse({ page: '2', pageSize: '50', username: 'an', role: 'adm', search: 'x' }));
    expect(q).toEqual({ pageNumber: 2, pageSize: 50, sort: { by: 'createdAt', direction: 'asc' }, filter: { username: { contains: 'an' }, role: { contains: 'adm' } }, search: 'x' });
  });
  it('repairs a hand-edited URL instead of failing', () => {
    const s = usersSearchSchema.parse({ page: '-3', pageSize: '33', sortBy: 'password', view: 'grid' });
    expect(s).toMatchObject({ page: 1, pageSize: 25, sortBy: 'createdAt', view: 'table' });
  });
});
