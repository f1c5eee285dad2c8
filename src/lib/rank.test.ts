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
  it('matches several words each anywhere, in any order, below a match of the whole text', () => {
    const items = [
      item('critical disk usage · web-042.prod.example.net', 'disk almost full on web-042.prod.example.net · active'),
      item('high cpu usage · web-042.prod.example.net', 'high cpu usage on web-042.prod.example.net · active'),
      item('high disk usage · db-107.prod.example.net', 'high disk usage on db-107 · active'),
      item('web-042 disk report'),
    ];
    expect(rank(items, 'web-042 disk').map((i) => i.title)).toEqual(['web-042 disk report', 'critical disk usage · web-042.prod.example.net']);
    expect(rank(items, 'DISK  web-042').map((i) => i.title).sort()).toEqual(['critical disk usage · web-042.prod.example.net', 'web-042 disk report']);
    expect(rank(items, 'almost web-042').map((i) => i.title)).toEqual(['critical disk usage · web-042.prod.example.net']);
    expect(rank(items, 'web-042 memory')).toEqual([]);
  });
  it('keeps every item, boosted first, for an empty query', () => {
    expect(rank([item('b'), item('a', '', 5)], '').map((i) => i.title)).toEqual(['a', 'b']);
  });
  it('limits the result count', () => {
    const many = Array.from({ length: 1000 }, (_, i) => item(`user ${i}`));
    expect(rank(many, 'user', 50)).toHaveLength(50);
  });
});
