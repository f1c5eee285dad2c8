import { getRouteApi, Outlet } from '@tanstack/react-router';
import { useCallback } from 'react';
import { Button } from '../../components/ui/button';
import { applyLayout, layoutDiffers, type Box } from '../../lib/widget-layout';
import type { PinnedWidget } from '../../lib/pinned-widgets';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useWidgets } from './use-widgets';
import { WidgetGrid } from './widget-grid';

const listRoute = getRouteApi('/app/pinned-widgets');

/**
 * /pinned-widgets (SPEC §2 Pinned Widgets): the wall of pinned charts, or the empty state.
 * Adding, removing and resetting go through the widget commands; moving and resizing by mouse are
 * direct manipulation and are saved as they end; by keyboard (Alt+Arrow, Alt+Shift+Arrow on a
 * focused widget) they run `widget.move` and `widget.resize`. Its child routes (create, edit, show) are drawers over it.
 */
export function PinnedWidgetsPage() {
  const { widgets, save } = useWidgets();
  const { run } = useCommandRunner();
  const navigate = listRoute.useNavigate();
  const add = () => void navigate({ to: '/pinned-widgets/create' });

  const commit = useCallback(
    (layout: readonly Box[]) => {
      if (layoutDiffers(widgets, layout)) save(applyLayout(widgets, layout));
    },
    [widgets, save],
  );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-semibold">Pinned Widgets</h1>
        {widgets.length > 0 && (
          <>
            <CommandButton command="widget.reset-layout" input={{}}>
              Reset Layout
            </CommandButton>
            <Button variant="primary" onPress={add}>
              Add Widget
            </Button>
          </>
        )}
      </div>
      {widgets.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-4 py-16 text-center dark:border-slate-600">
          <h2 className="text-lg font-semibold">No Pinned Widgets Found</h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">Please add one.</p>
          <Button variant="primary" className="mt-2" onPress={add}>
            Add Widget
          </Button>
        </div>
      ) : (
        <WidgetGrid
          widgets={widgets}
          onLayoutCommit={commit}
          onRemove={(w: PinnedWidget) => void run('widget.remove', { widget: w.i })}
          onOpen={(w) => void navigate({ to: '/pinned-widgets/show/$id', params: { id: w.i } })}
          onEdit={(w) => void navigate({ to: '/pinned-widgets/edit/$id', params: { id: w.i } })}
          onKeyCommand={({ id, input }) => void run(id, input, { source: 'hotkey' })}
        />
      )}
      <Outlet />
    </div>
  );
}
