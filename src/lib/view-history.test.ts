import { describe, expect, it } from 'vitest';
import { canMove, EMPTY_VIEWS, loadViews, nextViews, saveViews, type ViewLocation } from './view-history';

const at = (pathname: string, index: number, search = ''): ViewLocation => ({ pathname, href: `${pathname}${search}`, index });

describe('view history', () => {
  it('knows when there is a view back and forward, and the view before this one', () => {
    let s = nextViews(EMPTY_VIEWS, at('/', 0), 'REPLACE');
    expect([canMove(s, 'back'), canMove(s, 'forward'), canMove(s, 'previous')]).toEqual(['No earlier view in this tab.', 'No later view: you are at the newest.', 'No other view visited yet.']);
    s = nextViews(s, at('/servers', 1), 'PUSH');
    s = nextViews(s, at('/servers', 1, '?page=2'), 'REPLACE');
    s = nextViews(s, at('/notifications', 2), 'PUSH');
    expect(s.previous).toEqual(at('/servers', 1, '?page=2'));
    s = nextViews(s, at('/servers', 1, '?page=2'), 'BACK');
    expect([canMove(s, 'back'), canMove(s, 'forward')]).toEqual([true, true]);
    // `-` from here is the view just left (notifications), and then back again.
    expect(s.previous?.pathname).toBe('/notifications');
    s = nextViews(s, at('/notifications', 2), 'PUSH');
    expect(s.previous?.pathname).toBe('/servers');
    // A new entry drops what was forward of it.
    expect(canMove(s, 'forward')).not.toBe(true);
  });

  it('is kept in the tab’s storage and survives junk there', () => {
    const data = new Map<string, string>();
    const storage = { get: (k: string) => data.get(k) ?? null, set: (k: string, v: string) => void data.set(k, v) };
    const s = nextViews(nextViews(EMPTY_VIEWS, at('/', 0), 'REPLACE'), at('/users', 1), 'PUSH');
    saveViews(storage, s);
    expect(loadViews(storage)).toEqual(s);
    data.set('opsdeck.views', '{oops');
    expect(loadViews(storage)).toEqual(EMPTY_VIEWS);
  });
});
