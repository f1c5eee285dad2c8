import { describe, expect, it } from 'vitest';
import type { PinnedWidget } from './pinned-widgets';
import { applyLayout, bottomOf, GRID_BREAKPOINTS, GRID_COLS, layoutDiffers, placeNew, resetLayout, rowsToPixels } from './widget-layout';

const w = (i: string, x: number, y: number, width = 5, h = 5): PinnedWidget => ({ server: 's', type: 'cpu', title: i, panelId: 77, refreshInterval: 30_000, x, y, w: width, h, i });

describe('grid constants (SPEC §9)', () => {
  it('has the breakpoints and columns of SPEC', () => {
    expect(GRID_BREAKPOINTS).toMatchObject({ lg: 1200, md: 996, sm: 768, xs: 480 });
    expect(Object.values(GRID_COLS)).toEqual([12, 10, 6, 4, 2]);
  });
});

describe('placing a new widget', () => {
  it('goes 5×5 at the left of the first free row', () => {
    expect(placeNew([])).toEqual({ x: 0, y: 0, w: 5, h: 5 });
    expect(placeNew([w('a', 0, 0), w('b', 5, 0, 5, 8), w('c', 0, 5, 3, 2)])).toEqual({ x: 0, y: 8, w: 5, h: 5 });
    expect(bottomOf([w('a', 0, 3, 2, 4)])).toBe(7);
  });
});

describe('a layout from the grid', () => {
  it('updates positions and sizes by key and leaves the rest', () => {
    const widgets = [w('a', 0, 0), w('b', 5, 0)];
    const next = applyLayout(widgets, [{ i: 'b', x: 0, y: 5, w: 7, h: 9 }]);
    expect(next).toEqual([w('a', 0, 0), w('b', 0, 5, 7, 9)]);
    expect(next[1]!.title).toBe('b');
  });

  it('is a change only when a stored box moved or resized', () => {
    const widgets = [w('a', 0, 0), w('b', 5, 0)];
    expect(layoutDiffers(widgets, [{ i: 'a', x: 0, y: 0, w: 5, h: 5 }])).toBe(false);
    expect(layoutDiffers(widgets, [{ i: 'a', x: 0, y: 0, w: 6, h: 5 }])).toBe(true);
    expect(layoutDiffers(widgets, [{ i: 'unknown', x: 3, y: 3, w: 1, h: 1 }])).toBe(false);
  });
});

describe('resetting the layout', () => {
  it('puts every widget back to 5×5, two to a row of 12, in reading order', () => {
    const widgets = [w('low', 0, 20, 12, 3), w('right', 6, 0, 6, 10), w('left', 0, 0, 6, 2)];
    expect(resetLayout(widgets).map(({ i, x, y, w: width, h }) => ({ i, x, y, w: width, h }))).toEqual([
      { i: 'left', x: 0, y: 0, w: 5, h: 5 },
      { i: 'right', x: 5, y: 0, w: 5, h: 5 },
      { i: 'low', x: 0, y: 5, w: 5, h: 5 },
    ]);
  });
});

it('turns rows into pixels with the margins between them', () => {
  expect(rowsToPixels(1)).toBe(30);
  expect(rowsToPixels(5)).toBe(190);
});
