import { describe, expect, it } from 'vitest';
import { rank } from './rank';

const item = (title: string, extra = '', boost = 0) => ({ title: title.toLowerCase(), extra: extra.toLowerCase(), boost });

describe('rank', () => {
  it('puts a title prefix before a word start before a substring before a fuzzy match', () => {
    const items = [item('Fuzzy user'), item('Create user'), item('User list'), item('Reuse things')];
    expect(rank(items, 'use').map((i) => i.title)).toEqual(['user list', 'fuzzy user', 'create user', 'reuse things']);
  });
  it('finds words only in the extra text', () => {
    expect(rank([item('Ann', 'ann@example.com'), item('Bob')], 'example').map((i) => i.title)).toEqual(['ann']);
  });
  it('matches a fuzzy subsequence and drops non-matches', () => {
    expect(rank([item('Toggle dark mode'), item('Logout')], 'tdm').map((i) => i.title)).toEqual(['toggle dark mode']);
  });
  it('keeps every item, boosted first, for an empty query', () => {
    expect(rank([item('b'), item('a', '', 5)], '').map((i) => i.title)).toEqual(['a', 'b']);
  });
  it('limits the result count', () => {
    const many = Array.from({ length: 1000 }, (_, i) => item(`user ${i}`));
    expect(rank(many, 'user', 50)).toHaveLength(50);
  });
});
