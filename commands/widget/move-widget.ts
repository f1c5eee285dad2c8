import { z } from 'zod';
import { GRID_COLS } from '../../src/lib/widget-layout';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { gridCells, needsStorage, undoWidgetChange, updateWidget } from './widget-store';

/**
 * Moves a pinned widget to a grid cell without the mouse: the page's Alt+Arrow keys and
 * `widget.move "CPU Busy" --x 3`. Positions are in the widest grid's 12 columns, as stored.
 */
export const moveWidget = defineCommand({
  id: 'widget.move',
  title: 'Move pinned widget',
  category: 'Pinned widgets',
  description: 'Move a pinned widget to another column (--x) or row (--y) of the grid.',
  input: z.object({
    widget: z.string().trim().min(1, 'widget is required'),
    x: gridCells('x'),
    y: gridCells('y'),
  }),
  args: [
    { name: 'widget', label: 'Widget (title or key)', kind: 'text', positional: true },
    { name: 'x', label: 'Column (0 is the left edge)', kind: 'number', optional: true },
    { name: 'y', label: 'Row (0 is the top)', kind: 'number', optional: true },
  ],
  permission: 'read',
  enabled: needsStorage,
  inverse: (_input, result) => undoWidgetChange(result, 'widget.move', { x: 'x', y: 'y' }),
  screenKeys: { keys: 'alt+arrow', where: 'on a focused pinned widget' },
  run({ widget, x, y }, ctx) {
    if (x === undefined && y === undefined) throw new CommandError('Give an --x or a --y to move to.');
    const { before, next } = updateWidget(ctx, widget, (found) => {
      const maxX = GRID_COLS.lg - found.w;
      if (x !== undefined && (x < 0 || x > maxX)) throw new CommandError(`x must be between 0 and ${maxX}: **${found.title}** is ${found.w} columns wide in a grid of ${GRID_COLS.lg}.`);
      if (y !== undefined && y < 0) throw new CommandError('y must be 0 or more: row 0 is the top of the grid.');
      return { ...found, x: x ?? found.x, y: y ?? found.y };
    });
    return { message: `Moved **${next.title}** to column ${next.x}, row ${next.y}.`, data: next, before };
  },
});
