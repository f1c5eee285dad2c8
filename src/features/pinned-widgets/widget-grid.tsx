import { useId, useMemo, type KeyboardEvent } from 'react';
import { Responsive, useContainerWidth, type Layout, type ResponsiveLayouts } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import type { PinnedWidget } from '../../lib/pinned-widgets';
import { GRID_BREAKPOINTS, GRID_COLS, GRID_MARGIN, GRID_ROW_HEIGHT, MIN_WIDGET_SIZE, rowsToPixels, type Box, type GridBreakpoint } from '../../lib/widget-layout';
import { isTypingTarget } from '../../lib/hotkeys';
import { DRAG_HANDLE_CLASS, WidgetCard } from './widget-card';
import { WIDGET_KEYS_HINT, widgetKeyCommand } from './widget-keys';

export interface WidgetGridProps {
  widgets: readonly PinnedWidget[];
  /** A drag or a resize ended: the layout as it now stands on screen. */
  onLayoutCommit: (layout: readonly Box[]) => void;
  onRemove: (widget: PinnedWidget) => void;
  onOpen: (widget: PinnedWidget) => void;
  onEdit: (widget: PinnedWidget) => void;
  /** Alt+(Shift+)Arrow inside a widget: the move or resize command to run for it. */
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
  const onKeyDown = (widget: PinnedWidget) => (e: KeyboardEvent<HTMLDivElement>) => {
    // Not from a portal (an open menu bubbles through React here) nor from a text field.
    if (e.nativeEvent.isComposing || !e.currentTarget.contains(e.target as Node) || isTypingTarget(e.target)) return;
    const command = widgetKeyCommand(widget, e);
    if (!command) return;
    // Alt+Left/Right are the browser's Back/Forward.
    e.preventDefault();
    e.stopPropagation();
    onKeyCommand(command);
  };

  return (
    <div ref={containerRef} data-testid="widget-grid">
      <p id={hintId} className="sr-only">
        {WIDGET_KEYS_HINT}
      </p>
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
              onKeyDown={onKeyDown(w)}
            >
              <WidgetCard widget={w} initialHeight={rowsToPixels(w.h)} onRemove={() => onRemove(w)} onOpen={() => onOpen(w)} onEdit={() => onEdit(w)} />
            </div>
          ))}
        </Responsive>
      )}
    </div>
  );
}
