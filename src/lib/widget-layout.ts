import type { PinnedWidget } from './pinned-widgets';

/**
 * The pinned-widget grid (SPEC §9): rows 30 px high; breakpoints lg 1200, md 996, sm 768,
 * xs 480 and below that xxs, with 12/10/6/4/2 columns; a new widget is 5×5 at the bottom.
 * Pure, so the page, the widget commands and the tests share them.
 */
export const GRID_ROW_HEIGHT = 30;
export const GRID_MARGIN = 10;
export const GRID_BREAKPOINTS = { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 } as const;
export const GRID_COLS = { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 } as const;
export type GridBreakpoint = keyof typeof GRID_BREAKPOINTS;
export const NEW_WIDGET_SIZE = { w: 5, h: 5 } as const;
/** The smallest widget the grid's resize handle allows; `widget.resize` keeps to it as well. */
export const MIN_WIDGET_SIZE = { w: 2, h: 3 } as const;

export interface Box {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The first free row under every widget. */
export function bottomOf(boxes: readonly Pick<Box, 'y' | 'h'>[]): number {
  return boxes.reduce((max, b) => Math.max(max, b.y + b.h), 0);
}

/** Where a new widget goes: 5×5 at the left of the first free row. */
export function placeNew(boxes: readonly Pick<Box, 'y' | 'h'>[]): Omit<Box, 'i'> {
  return { x: 0, y: bottomOf(boxes), ...NEW_WIDGET_SIZE };
}

/** The widgets with the positions and sizes of a layout the grid reported (by `i`); others unchanged. */
export function applyLayout(widgets: readonly PinnedWidget[], layout: readonly Box[]): PinnedWidget[] {
  const byId = new Map(layout.map((b) => [b.i, b]));
  return widgets.map((w) => {
    const b = byId.get(w.i);
    if (!b) return w;
    return { ...w, x: Math.max(0, Math.round(b.x)), y: Math.max(0, Math.round(b.y)), w: Math.max(1, Math.round(b.w)), h: Math.max(1, Math.round(b.h)) };
  });
}

/** True when a layout would change something stored: saves are skipped for no-op drags. */
export function layoutDiffers(widgets: readonly PinnedWidget[], layout: readonly Box[]): boolean {
  const byId = new Map(widgets.map((w) => [w.i, w]));
  return layout.some((b) => {
    const w = byId.get(b.i);
    return !!w && (w.x !== b.x || w.y !== b.y || w.w !== b.w || w.h !== b.h);
  });
}

/**
 * `widget.reset-layout`: every widget back to 5×5, in their reading order (top to bottom, left
 * to right), as many to a row as fit in the widest grid's 12 columns.
 */
export function resetLayout(widgets: readonly PinnedWidget[], cols: number = GRID_COLS.lg): PinnedWidget[] {
  const perRow = Math.max(1, Math.floor(cols / NEW_WIDGET_SIZE.w));
  const ordered = [...widgets].sort((a, b) => a.y - b.y || a.x - b.x);
  return ordered.map((w, n) => ({ ...w, x: (n % perRow) * NEW_WIDGET_SIZE.w, y: Math.floor(n / perRow) * NEW_WIDGET_SIZE.h, ...NEW_WIDGET_SIZE }));
}

/** Pixel height of an item `h` rows high (RGL: rows plus the margins between them). */
export function rowsToPixels(h: number, rowHeight = GRID_ROW_HEIGHT, margin = GRID_MARGIN): number {
  return h * rowHeight + Math.max(0, h - 1) * margin;
}
