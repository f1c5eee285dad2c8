import { shortcutLabel } from '../../app/command-host/hotkeys';
import type { Box } from '../../lib/widget-layout';

/** The two commands a focused widget's keys run; their keys are declared on them (`screenKeys`). */
export type WidgetKeyCommandId = 'widget.move' | 'widget.resize';

/**
 * What the focused widget's keys say, for assistive technology (aria-describedby), built from
 * the keys `widget.move` and `widget.resize` declare so the hint names the keys that work.
 */
export function widgetKeysHint(moveKeys: string, resizeKeys: string): string {
  return `${shortcutLabel(moveKeys)} keys move this widget one cell; ${shortcutLabel(resizeKeys)} keys make it one cell wider, narrower, taller or shorter.`;
}

const steps: Record<string, readonly [dx: number, dy: number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/**
 * The input of the command whose key was pressed inside a widget: `widget.move` one cell the
 * arrow's way, `widget.resize` by one cell (right and down grow it, left and up shrink it).
 * Null for a key that is not an arrow. Out-of-range steps are sent all the same: the command
 * refuses them with its reason, which the page shows.
 */
export function widgetKeyCommand(
  widget: Box,
  id: WidgetKeyCommandId,
  arrow: string,
): { id: 'widget.move'; input: { widget: string; x?: number; y?: number } } | { id: 'widget.resize'; input: { widget: string; w?: number; h?: number } } | null {
  const step = steps[arrow];
  if (!step) return null;
  const [dx, dy] = step;
  // Only the axis the key is about, so a stored value out of today's range on the other axis does not block the step.
  if (id === 'widget.resize') return { id, input: { widget: widget.i, ...(dx ? { w: widget.w + dx } : { h: widget.h + dy }) } };
  return { id, input: { widget: widget.i, ...(dx ? { x: widget.x + dx } : { y: widget.y + dy }) } };
}
