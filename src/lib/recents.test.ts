import { describe, expect, it } from 'vitest';
import { createRecents, frecency } from './recents';

const DAY = 24 * 3600_000;
const store = () => {
  const data = new Map<string, string>();
  return { data, get: (k: string) => data.get(k) ?? null, set: (k: string, v: string) => void data.set(k, v) };
};

describe('recents', () => {
  it('counts uses with a three-day half-life: frequent and recent both rank high', () => {
    let now = 0;
    const s = store();
    const r = createRecents(s, 'u1', () => now);
    for (let i = 0; i < 4; i++) r.record('cmd:old-favourite');
    now += 3 * DAY;
    r.record('cmd:just-now');
    expect(frecency({ score: 4, at: 0 }, now)).toBeCloseTo(2);
    expect(r.top(5).map((e) => e.key)).toEqual(['cmd:old-favourite', 'cmd:just-now']);
    now += 3 * DAY;
    r.record('cmd:just-now');
    expect(r.top(5).map((e) => e.key)).toEqual(['cmd:just-now', 'cmd:old-favourite']);
    expect(r.scores(now).get('cmd:just-now')).toBeCloseTo(1.5);
  });

  it('is kept per person in the storage, keeps an entity’s snapshot, and holds at most 200 entries', () => {
    const s = store();
    const r = createRecents(s, 'u1', () => 1);
    const zed = { kind: 'user', id: 'z', title: 'zed', subtitle: 'zed@x', value: 'z', completion: 'zed' };
    r.record('user:z', zed);
    r.record('user:z');
    expect(createRecents(s, 'u1').top(1)[0]).toMatchObject({ key: 'user:z', score: 2, entity: zed });
    expect(createRecents(s, 'u2').top(1)).toEqual([]);
    for (let i = 0; i < 250; i++) r.record(`cmd:c${i}`);
    expect(JSON.parse(s.data.get('opsdeck.recents.u1')!)).toHaveLength(200);
    s.set('opsdeck.recents.u3', '{not json');
    expect(createRecents(s, 'u3').top(5)).toEqual([]);
  });
});
