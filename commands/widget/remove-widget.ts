import { z } from 'zod';
import { writeWidgets } from '../../src/lib/pinned-widgets';
import { defineCommand } from '../define-command';
import { findWidget, needsStorage, storeOf, widgetsOf } from './widget-store';

/** SPEC §2: remove per widget. One click, no confirmation: pinning it again is as cheap. */
export const removeWidget = defineCommand({
  id: 'widget.remove',
  title: 'Remove pinned widget',
  category: 'Pinned widgets',
  description: 'Remove a widget from the Pinned Widgets page, by its title or key.',
  input: z.object({ widget: z.string().trim().min(1, 'widget is required') }),
  args: [{ name: 'widget', label: 'Widget (title or key)', kind: 'text', positional: true }],
  permission: 'read',
  enabled: needsStorage,
  run({ widget }, ctx) {
    const store = storeOf(ctx);
    const widgets = widgetsOf(ctx);
    const found = findWidget(widgets, widget);
    writeWidgets(
      store,
      widgets.filter((w) => w.i !== found.i),
    );
    return { message: `Removed the widget **${found.title}**.`, data: found };
  },
});
