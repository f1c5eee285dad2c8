import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isUuid } from './ids';
import { statusItemInputSchema } from './status-pages';

describe('isUuid', () => {
  it('takes the ids the database and the server make, in either case', () => {
    const id = randomUUID();
    expect(isUuid(id)).toBe(true);
    expect(isUuid(id.toUpperCase())).toBe(true);
    expect(isUuid('6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f')).toBe(true);
  });

  it('refuses names, fragments and 8-4-4-4-12 hex without the version and variant of a uuid', () => {
    for (const v of ['web-01', '', ' ' + randomUUID(), randomUUID().slice(0, 35), '11111111-1111-1111-1111-111111111111', 'zzzzzzzz-0000-4000-8000-000000000000']) expect(isUuid(v), v).toBe(false);
  });
});

describe('id fields name themselves', () => {
  it('a status page item without a valid id', () => {
    const issue = (input: unknown) => statusItemInputSchema.safeParse(input).error?.issues.find((i) => i.path[0] === 'id')?.message;
    expect(issue({ kind: 'server', displayName: 'DB' })).toBe('id is required');
    expect(issue({ kind: 'server', id: 'web-01', displayName: 'DB' })).toBe('id must be the id of a server or a check');
  });
});
