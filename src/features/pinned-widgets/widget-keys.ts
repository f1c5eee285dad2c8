import type { Box } from '../../lib/widget-layout';

/** What the focused widget's keys say, for assistive technology (aria-describedby) and docs/decisions.md. */
export const WIDGET_KEYS_HINT = 'Alt+Arrow keys move this widget one cell; Alt+Shift+Arrow keys make it one cell wider, narrower, taller or shorter.';

const steps: Record<string, readonly [dx: number, dy: number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/**
 * The command a key pressed inside a widget runs: Alt+Arrow is `widget.move` one cell that way,
 * Alt+Shift+Arrow is `widget.resize` by one cell (right and down grow it, left and up shrink it).
 * Anything else, or with Ctrl/Meta held, is not ours. Out-of-range steps are sent all the same:
 * the command refuses them with its reason, which the page shows.
 */
export function widgetKeyCommand(
  widget: Box,
  key: { key: string; altKey: boolean; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean },
): { id: 'widget.move'; input: { widget: string; x?: number; y?: number } } | { id: 'widget.resize'; input: { widget: string; w?: number; h?: number } } | null {
  const step = steps[key.key];
  if (!step || !key.altKey || key.ctrlKey || key.metaKey) return null;
  const [dx, dy] = step;
  // Only the axis the key is about, so a stored value out of today's range on the other axis does not block the step.
  if (key.shiftKey) return { id: 'widget.resize', input: { widget: widget.i, ...(dx ? { w: widget.w + dx } : { h: widget.h + dy }) } };
  return { id: 'widget.move', input: { widget: widget.i, ...(dx ? { x: widget.x + dx } : { y: widget.y + dy }) } };
}
