import { z } from 'zod';
import { refreshLabel, refreshToMs, widgetRefreshOptions, widgetRefreshValues } from '../../src/lib/pinned-widgets';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { needsStorage, undoWidgetChange, updateWidget } from './widget-store';

/** /pinned-widgets/edit/$id: a widget's title and refresh interval (its chart stays: pin another for that). */
export const editWidget = defineCommand({
  id: 'widget.edit',
  title: 'Edit pinned widget',
  category: 'Pinned widgets',
  description: 'Rename a pinned widget or change how often it refreshes.',
  input: z.object({
    widget: z.string().trim().min(1, 'widget is required'),
    title: z.string().trim().min(1, 'title may not be empty').optional(),
    refresh: z.enum(widgetRefreshValues).optional(),
  }),
  args: [
    { name: 'widget', label: 'Widget (title or key)', kind: 'text', positional: true },
    { name: 'title', label: 'Title', kind: 'text', optional: true },
    { name: 'refresh', label: 'Refresh Interval', kind: 'enum', optional: true, options: widgetRefreshOptions.map((o) => ({ value: o.value, label: o.label })) },
  ],
  permission: 'read',
  enabled: needsStorage,
  inverse: (_input, result) => undoWidgetChange(result, 'widget.edit', { title: 'title', refreshInterval: 'refresh' }),
  run({ widget, title, refresh }, ctx) {
    if (title === undefined && refresh === undefined) throw new CommandError('Give a --title or a --refresh to change.');
    const { before, next } = updateWidget(ctx, widget, (found) => ({ ...found, ...(title !== undefined ? { title } : {}), ...(refresh !== undefined ? { refreshInterval: refreshToMs(refresh) } : {}) }));
    return { message: `Widget **${next.title}** refreshes every ${refreshLabel(next.refreshInterval)}.`, data: next, before };
  },
});
