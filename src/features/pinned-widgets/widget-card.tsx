import { useQuery } from '@tanstack/react-query';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { MonitoringConfig, Server } from '../../../server/contract/servers';
import { ApiError } from '../../api/client';
import { monitoringConfigQueryOptions, serverQueryOptions } from '../../api/servers';
import { ChartPanel } from '../../components/charts/chart-panel';
import { Button } from '../../components/ui/button';
import { Menu } from '../../components/ui/menu';
import { Skeleton } from '../../components/ui/skeleton';
import { useDarkClass } from '../../components/ui/use-dark-class';
import { grafanaPanelUrl } from '../../lib/grafana-embed';
import { refreshLabel, widgetTypeLabels, type PinnedWidget } from '../../lib/pinned-widgets';
import { panelInfo } from '../../lib/server-panels';
import { useWidgetWindow } from './use-widget-window';
import { Icon } from '../../components/ui/icons';

/** The grid drags a widget by its title row only, so the chart underneath keeps its own mouse (uPlot zoom). */
export const DRAG_HANDLE_CLASS = 'widget-drag-handle';

export interface WidgetCardProps {
  widget: PinnedWidget;
  onRemove: () => void;
  onOpen?: () => void;
  onEdit?: () => void;
  /** Fallback height before the card has measured its cell. */
  initialHeight: number;
}

/**
 * One pinned widget: its chart for the last hour, refreshed every `refreshInterval` (SPEC §9),
 * drawn by the console or embedded from Grafana as the monitoring settings say, sized to its
 * grid cell. A server that is gone says so and keeps the Remove button.
 */
export function WidgetCard({ widget, onRemove, onOpen, onEdit, initialHeight }: WidgetCardProps) {
  const cell = useRef<HTMLDivElement>(null);
  const height = useHeight(cell, initialHeight);
  const server = useQuery(serverQueryOptions(widget.server));
  const config = useQuery(monitoringConfigQueryOptions());
  const window = useWidgetWindow(widget.refreshInterval);

  const actions = (
    <>
      <span className="shrink-0 text-xs text-slate-500 tabular-nums dark:text-slate-400" title="Refresh interval">
        {refreshLabel(widget.refreshInterval)}
      </span>
      {(onOpen || onEdit) && (
        <Menu
          label={`More actions for ${widget.title}`}
          actions={[
            ...(onOpen ? [{ id: 'open', label: 'Open', onAction: onOpen }] : []),
            ...(onEdit ? [{ id: 'edit', label: 'Edit', onAction: onEdit }] : []),
          ]}
        />
      )}
      <Button variant="danger-ghost" size="sm" aria-label={`Remove widget ${widget.title}`} onPress={onRemove}>
        <Icon name="close" />
      </Button>
    </>
  );

  let content: ReactNode;
  const s = server.data?.result;
  if (server.isPending || config.isPending) {
    content = <Placeholder title={widget.title} actions={actions} />;
  } else if (server.isError || !s) {
    const gone = server.error instanceof ApiError && server.error.status === 404;
    content = (
      <Placeholder title={widget.title} actions={actions}>
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {gone ? 'This server no longer exists. Remove the widget.' : `Could not load the server. ${server.error?.message ?? ''}`}
        </p>
      </Placeholder>
    );
  } else if (config.data?.result.grafanaUrl) {
    content = <GrafanaWidget widget={widget} server={s} config={config.data.result} height={height} actions={actions} />;
  } else {
    content = (
      <ChartPanel
        serverId={s._id}
        os={s.operating_system}
        panel={panelInfo(s.operating_system, widget.panelId)}
        window={window}
        tz="utc"
        title={widget.title}
        subtitle={`${s.hostname} · ${widgetTypeLabels[widget.type]}`}
        height={height}
        actions={actions}
        headerClassName={`${DRAG_HANDLE_CLASS} cursor-move`}
      />
    );
  }
  return (
    <div ref={cell} className="h-full" data-widget={widget.i}>
      {content}
    </div>
  );
}

function Placeholder({ title, actions, children }: { title: string; actions: ReactNode; children?: ReactNode }) {
  return (
    <section aria-label={title} className="flex h-full flex-col rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
      <div className={`${DRAG_HANDLE_CLASS} mb-2 flex cursor-move items-center gap-2`}>
        <h3 className="mr-auto truncate text-sm font-semibold">{title}</h3>
        {actions}
      </div>
      <div className="min-h-0 flex-1">{children ?? <Skeleton className="h-full w-full" />}</div>
    </section>
  );
}

/** A Grafana panel in the widget's cell (PANELS.md embed form); Grafana refreshes it itself. */
function GrafanaWidget({ widget, server, config, height, actions }: { widget: PinnedWidget; server: Server; config: MonitoringConfig; height: number; actions: ReactNode }) {
  const dark = useDarkClass();
  const src = grafanaPanelUrl({
    grafanaUrl: config.grafanaUrl!,
    os: server.operating_system,
    ipaddress: server.ipaddress,
    agentPort: server.agentPort,
    panelId: widget.panelId,
    from: 'now-1h',
    to: 'now',
    theme: dark ? 'dark' : 'light',
    refresh: refreshLabel(widget.refreshInterval),
    job: config.grafanaJob,
    datasource: config.grafanaDatasource,
  });
  return (
    <section aria-label={widget.title} className="flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900" style={{ height }}>
      <div className={`${DRAG_HANDLE_CLASS} mb-2 flex cursor-move items-center gap-2`}>
        <div className="mr-auto min-w-0">
          <h3 className="truncate text-sm font-semibold">{widget.title}</h3>
          <p className="truncate text-xs text-slate-500 dark:text-slate-400">{server.hostname}</p>
        </div>
        {actions}
      </div>
      <iframe title={widget.title} src={src} data-panel={widget.panelId} className="min-h-0 w-full flex-1 rounded border-0" />
    </section>
  );
}

/** The element's height, following resizes (dragging a widget's corner), `fallback` before the first measure. */
function useHeight(ref: React.RefObject<HTMLDivElement | null>, fallback: number): number {
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setHeight(Math.floor(el.clientHeight));
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const h = Math.floor(entries[0]?.contentRect.height ?? 0);
      setHeight((prev) => (prev === h ? prev : h));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return height > 0 ? height : fallback;
}
