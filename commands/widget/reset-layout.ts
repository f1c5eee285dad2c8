import { z } from 'zod';
import { writeWidgets } from '../../src/lib/pinned-widgets';
import { resetLayout as resetBoxes } from '../../src/lib/widget-layout';
import { defineCommand } from '../define-command';
import { needsStorage, storeOf, widgetsOf } from './widget-store';

/** Every widget back to 5×5 in reading order: the way out of a layout dragged into a mess. */
export const resetWidgetLayout = defineCommand({
  id: 'widget.reset-layout',
  title: 'Reset widget layout',
  category: 'Pinned widgets',
  description: 'Put every pinned widget back to 5×5, side by side in their current order.',
  input: z.object({}),
  permission: 'read',
  enabled: needsStorage,
  destructive: { title: 'Reset Layout', message: () => 'Put every widget back to its default size and place? Your arrangement is lost.', confirmLabel: 'Reset' },
  run(_input, ctx) {
    const store = storeOf(ctx);
    const widgets = widgetsOf(ctx);
    writeWidgets(store, resetBoxes(widgets));
    return { message: widgets.length ? `Reset the layout of ${widgets.length} widget${widgets.length === 1 ? '' : 's'}.` : 'There are no pinned widgets.' };
  },
});
