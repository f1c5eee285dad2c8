import { describe, expect, it } from 'vitest';
import { parseWidgets, readWidgets, widgetPanels, widgetTypeOfPanel, writeWidgets, WIDGETS_KEY, type KeyValueStore, type PinnedWidget } from './pinned-widgets';

const good: PinnedWidget = { server: 's1', type: 'cpu', title: 'CPU Basic', panelId: 77, refreshInterval: 30_000, x: 0, y: 0, w: 5, h: 5, i: 'a' };

function memoryStore(initial?: string): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  if (initial !== undefined) data.set(WIDGETS_KEY, initial);
  return { data, get: (k) => data.get(k) ?? null, set: (k, v) => void data.set(k, v) };
}

describe('stored widgets', () => {
  it('round-trips through the store under "widgets" with SPEC’s fields', () => {
    const store = memoryStore();
    writeWidgets(store, [good]);
    expect(Object.keys(JSON.parse(store.data.get('widgets')!)[0]).sort()).toEqual(['h', 'i', 'panelId', 'refreshInterval', 'server', 'title', 'type', 'w', 'x', 'y']);
    expect(readWidgets(store)).toEqual([good]);
  });

  it('reads nothing, without throwing, from a missing, broken or non-list value', () => {
    for (const raw of [null, '', '{', 'null', '42', '"x"', '{"a":1}']) expect(parseWidgets(raw)).toEqual([]);
  });

  it('drops entries that do not fit and keeps the rest', () => {
    const bad = [
      null,
      'text',
      { ...good, i: 'b', type: 'gpu' },
      { ...good, i: 'c', panelId: -1 },
      { ...good, i: 'd', refreshInterval: 15_000 },
      { ...good, i: 'e', w: 0 },
      { ...good, i: 'f', x: -2 },
      { ...good, i: 'g', y: 1.5 },
      { ...good, i: '' },
      { ...good, i: 'h', server: '' },
      { ...good, i: 'j', title: 7 },
      (({ h: _h, ...rest }) => ({ ...rest, i: 'k' }))(good),
    ];
    const ok2 = { ...good, i: 'z', type: 'network', panelId: 84, refreshInterval: 600_000 };
    expect(parseWidgets(JSON.stringify([good, ...bad, ok2]))).toEqual([good, ok2]);
  });

  it('keeps the first of two entries with the same key (the grid keys children by it)', () => {
    expect(parseWidgets(JSON.stringify([good, { ...good, title: 'other' }]))).toEqual([good]);
  });
});

describe('widget panels', () => {
  it('are the panels of the server detail’s tab of that type, per OS', () => {
    expect(widgetPanels('linux', 'cpu').map((p) => p.id)).toEqual([14, 19, 20, 77]);
    expect(widgetPanels('linux', 'disk').map((p) => p.id)).toEqual([154, 23, 152, 156, 229, 43, 42]);
    expect(widgetPanels('windows', 'memory').map((p) => [p.id, p.title])).toEqual([
      [37, 'RAM'],
      [21, 'Memory Usage'],
      [39, 'Total SWAP'],
      [14, 'Memory Details'],
    ]);
  });

  it('names the type of a panel, Overview panels included, and null for one of no type', () => {
    expect(widgetTypeOfPanel('linux', 78)).toBe('memory');
    expect(widgetTypeOfPanel('linux', 152)).toBe('disk');
    expect(widgetTypeOfPanel('windows', 11)).toBe('network');
    expect(widgetTypeOfPanel('linux', 9999)).toBeNull();
  });
});
