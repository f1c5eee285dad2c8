import { useId, useMemo } from 'react';
import { Responsive, useContainerWidth, type Layout, type ResponsiveLayouts } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import type { PinnedWidget } from '../../lib/pinned-widgets';
import { GRID_BREAKPOINTS, GRID_COLS, GRID_MARGIN, GRID_ROW_HEIGHT, MIN_WIDGET_SIZE, rowsToPixels, type Box, type GridBreakpoint } from '../../lib/widget-layout';
import { useShortcuts } from '../../app/command-host/hotkeys';
import { useCommandRunner } from '../../app/command-host/run-command';
import { DRAG_HANDLE_CLASS, WidgetCard } from './widget-card';
import { widgetKeyCommand, widgetKeysHint, type WidgetKeyCommandId } from './widget-keys';

export interface WidgetGridProps {
  widgets: readonly PinnedWidget[];
  /** A drag or a resize ended: the layout as it now stands on screen. */
  onLayoutCommit: (layout: readonly Box[]) => void;
  onRemove: (widget: PinnedWidget) => void;
  onOpen: (widget: PinnedWidget) => void;
  onEdit: (widget: PinnedWidget) => void;
  /** The move or resize key inside a widget (as `widget.move` / `widget.resize` declare them): the command to run for it. */
  onKeyCommand: (command: NonNullable<ReturnType<typeof widgetKeyCommand>>) => void;
}

const breakpoints = Object.keys(GRID_BREAKPOINTS) as GridBreakpoint[];

/**
 * The draggable, resizable wall (SPEC §9: rows 30 px; lg 1200 / md 996 / sm 768 / xs 480 with
 * 12/10/6/4/2 columns). Widgets keep one stored position (SPEC §3: x, y, w, h), given to every
 * breakpoint; the grid fits it into narrower ones. Only what a person does — a drag or a resize
 * — is saved, never the grid's own fitting, so a narrow window does not overwrite the wide
 * arrangement (docs/decisions.md).
 */
export function WidgetGrid({ widgets, onLayoutCommit, onRemove, onOpen, onEdit, onKeyCommand }: WidgetGridProps) {
  const { width, containerRef, mounted } = useContainerWidth();
  const layouts = useMemo(() => {
    const layout: Layout = widgets.map(({ i, x, y, w, h }) => ({ i, x, y, w, h, minW: MIN_WIDGET_SIZE.w, minH: MIN_WIDGET_SIZE.h }));
    return Object.fromEntries(breakpoints.map((b) => [b, layout])) as ResponsiveLayouts<GridBreakpoint>;
  }, [widgets]);
  const commit = (layout: Layout) => onLayoutCommit(layout.map(({ i, x, y, w, h }) => ({ i, x, y, w, h })));
  const hintId = useId();
  // The keys are the ones widget.move and widget.resize declare (the "?" overview lists the same),
  // bound inside the grid only and acting on the widget that has the focus.
  const runner = useCommandRunner();
  const declared = (id: WidgetKeyCommandId) => runner.get(id)?.screenKeys?.keys;
  const moveKeys = declared('widget.move');
  const resizeKeys = declared('widget.resize');
  const focusedWidget = (e: KeyboardEvent) => {
    const id = (e.target as Element | null)?.closest?.('[data-widget-id]')?.getAttribute('data-widget-id');
    return widgets.find((w) => w.i === id);
  };
  const keyBinding = (id: WidgetKeyCommandId, keys: string | undefined) =>
    keys
      ? [
          {
            shortcut: keys,
            accept: (e: KeyboardEvent) => !!focusedWidget(e),
            fire: (e: KeyboardEvent) => {
              const command = widgetKeyCommand(focusedWidget(e)!, id, e.key);
              if (!command) return;
              e.stopPropagation();
              onKeyCommand(command);
            },
          },
        ]
      : [];
  // Alt+Left/Right are also the browser's Back/Forward: useShortcuts prevents that for a press it takes.
  const keysRef = useShortcuts([...keyBinding('widget.move', moveKeys), ...keyBinding('widget.resize', resizeKeys)]);

  return (
    <div ref={containerRef} data-testid="widget-grid">
      <p id={hintId} className="sr-only">
        {moveKeys && resizeKeys ? widgetKeysHint(moveKeys, resizeKeys) : null}
      </p>
      <div ref={keysRef}>
        {mounted && (
          <Responsive
            width={width}
            layouts={layouts}
            breakpoints={GRID_BREAKPOINTS}
            cols={GRID_COLS}
            rowHeight={GRID_ROW_HEIGHT}
            margin={[GRID_MARGIN, GRID_MARGIN]}
            containerPadding={[0, 0]}
            dragConfig={{ handle: `.${DRAG_HANDLE_CLASS}`, cancel: 'button, a, input, [role="button"]' }}
            onDragStop={commit}
            onResizeStop={commit}
          >
            {widgets.map((w) => (
              <div
                key={w.i}
                data-widget-id={w.i}
                aria-label={`Widget ${w.title}`}
                aria-describedby={hintId}
                role="group"
                tabIndex={0}
                className="rounded-lg outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-slate-900"
              >
                <WidgetCard widget={w} initialHeight={rowsToPixels(w.h)} onRemove={() => onRemove(w)} onOpen={() => onOpen(w)} onEdit={() => onEdit(w)} />
              </div>
            ))}
          </Responsive>
        )}
      </div>
    </div>
  );
}
