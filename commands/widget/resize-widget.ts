import { z } from 'zod';
import { GRID_COLS, MIN_WIDGET_SIZE } from '../../src/lib/widget-layout';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { gridCells, needsStorage, undoWidgetChange, updateWidget } from './widget-store';

/**
 * Resizes a pinned widget without the mouse: the page's Alt+Shift+Arrow keys and
 * `widget.resize "CPU Busy" --w 6 --h 8`. Sizes are in the widest grid's 12 columns and 30 px
 * rows, as stored, with the same minimum the resize handle keeps (2 columns, 3 rows).
 */
export const resizeWidget = defineCommand({
  id: 'widget.resize',
  title: 'Resize pinned widget',
  category: 'Pinned widgets',
  description: 'Make a pinned widget wider or narrower (--w, columns) or taller or shorter (--h, rows).',
  input: z.object({
    widget: z.string().trim().min(1, 'widget is required'),
    w: gridCells('w'),
    h: gridCells('h'),
  }),
  args: [
    { name: 'widget', label: 'Widget (title or key)', kind: 'text', positional: true },
    { name: 'w', label: 'Width in columns', kind: 'number', optional: true },
    { name: 'h', label: 'Height in rows', kind: 'number', optional: true },
  ],
  permission: 'read',
  enabled: needsStorage,
  inverse: (_input, result) => undoWidgetChange(result, 'widget.resize', { w: 'w', h: 'h' }),
  screenKeys: { keys: 'alt+shift+arrow', where: 'on a focused pinned widget' },
  run({ widget, w, h }, ctx) {
    if (w === undefined && h === undefined) throw new CommandError('Give a --w or an --h to resize to.');
    const { before, next } = updateWidget(ctx, widget, (found) => {
      const maxW = GRID_COLS.lg - found.x;
      if (w !== undefined && (w < MIN_WIDGET_SIZE.w || w > maxW)) {
        throw new CommandError(`w must be between ${MIN_WIDGET_SIZE.w} and ${maxW}: **${found.title}** starts at column ${found.x} of ${GRID_COLS.lg}.`);
      }
      if (h !== undefined && h < MIN_WIDGET_SIZE.h) throw new CommandError(`h must be ${MIN_WIDGET_SIZE.h} or more: a widget is at least ${MIN_WIDGET_SIZE.h} rows tall.`);
      return { ...found, w: w ?? found.w, h: h ?? found.h };
    });
    return { message: `Resized **${next.title}** to ${next.w} columns by ${next.h} rows.`, data: next, before };
  },
});
