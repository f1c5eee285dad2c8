import { describe, expect, it } from 'vitest';
import { groupsListQuery, groupsSearchSchema } from './groups-search';

describe('notification groups URL state', () => {
  it('defaults to page 1 of 25, newest first', () => {
    const s = groupsSearchSchema.parse({});
    expect(s).toEqual({ page: 1, pageSize: 25, sortBy: 'createdAt', sortDir: 'desc' });
    expect(groupsListQuery(s)).toEqual({ pageNumber: 1, pageSize: 25, sort: { by: 'createdAt', direction: 'desc' } });
  });
  it('falls back from nonsense in a hand-edited URL instead of failing', () => {
    expect(groupsSearchSchema.parse({ page: '-3', pageSize: '30', sortBy: 'emailList', sortDir: 'up' })).toEqual({ page: 1, pageSize: 25, sortBy: 'createdAt', sortDir: 'desc' });
    expect(groupsSearchSchema.parse({ page: '2', pageSize: '75', sortBy: 'name', sortDir: 'asc' })).toMatchObject({ page: 2, pageSize: 75, sortBy: 'name', sortDir: 'asc' });
  });
  it('searches by name (contains), ignoring surrounding blanks', () => {
    expect(groupsListQuery(groupsSearchSchema.parse({ name: '  ops ' })).filter).toEqual({ name: { contains: 'ops' } });
    expect(groupsListQuery(groupsSearchSchema.parse({ name: '   ' })).filter).toBeUndefined();
  });
});
