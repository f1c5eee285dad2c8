import type { MonitoringConfig, Server } from '../../../server/contract/servers';
import { Button } from '../../components/ui/button';
import { cx } from '../../components/ui/cx';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../components/ui/toast';
import { useDarkClass } from '../../components/ui/use-dark-class';
import { grafanaPanelUrl } from '../../lib/grafana-embed';
import { widgetTypeOfPanel } from '../../lib/pinned-widgets';
import { panelHeight, panelsFor, type PanelInfo } from '../../lib/server-panels';
import type { ServerTab, ServerView } from '../../lib/server-view';
import { rangePresets } from '../../lib/time-range';
import { ChartPanel } from '../../components/charts/chart-panel';
import { useChartWindow } from './live';
import { useCommandRunner } from '../../app/command-host/run-command';
import { ForecastNote } from './forecast-note';
import { TimeRangeBar } from './time-range-bar';

/**
 * One metric tab: the time-range bar, then its panels (ids from SPEC §2). Tiles (stats,
 * gauges, bar gauges) share a row, stats and gauges one line high; time series take the full width. With a Grafana URL set the
 * panels are Grafana frames, otherwise the console draws them from the chart API.
 */
export function MetricTab({ server, tab, view, config }: { server: Server; tab: ServerTab; view: ServerView; config: MonitoringConfig | undefined }) {
  const window = useChartWindow(view);
  const panels = panelsFor(server.operating_system, tab);
  const tiles = panels.filter((p) => p.kind !== 'timeseries');
  const series = panels.filter((p) => p.kind === 'timeseries');
  const grafanaUrl = config?.grafanaUrl ?? null;

  const render = (p: PanelInfo, compact = false) =>
    // Until the settings say built-in or Grafana, a placeholder of the panel's size: no flash of the wrong kind.
    !config ? (
      <div key={p.id} aria-hidden className="rounded-lg border border-slate-200 p-3 dark:border-slate-700" style={{ height: compact && p.kind !== 'bargauge' ? 64 : panelHeight(p.kind, p.tall) }}>
        <Skeleton className="h-full w-full" />
      </div>
    ) : grafanaUrl ? (
      <GrafanaPanel key={p.id} config={config} grafanaUrl={grafanaUrl} server={server} panel={p} view={view} window={window} />
    ) : (
      <ChartPanel key={p.id} serverId={server._id} os={server.operating_system} panel={p} window={window} tz={view.tz} actions={<PinButton server={server} panel={p} />} compact={compact} />
    );

  return (
    <div className="space-y-4">
      <TimeRangeBar view={view} window={window} />
      {(tab === 'disk' || tab === 'memory') && <ForecastNote serverId={server._id} metric={tab} />}
      {/* Stats and gauges as one-line tiles (the header draws the arcs), so the first chart is in view. */}
      {tiles.length > 0 && <div className={cx('grid grid-cols-1 gap-3 sm:grid-cols-2', tiles.length >= 4 ? 'xl:grid-cols-4' : tiles.length === 3 ? 'lg:grid-cols-3' : '')}>{tiles.map((p) => render(p, !grafanaUrl))}</div>}
      {series.length > 0 && <div className="grid grid-cols-1 gap-4">{series.map((p) => render(p))}</div>}
    </div>
  );
}

/** "Pin to widgets": runs `widget.pin` for this server and panel, with the widgets' default 30 s refresh. */
function PinButton({ server, panel }: { server: Server; panel: PanelInfo }) {
  const { run } = useCommandRunner();
  const type = widgetTypeOfPanel(server.operating_system, panel.id);
  if (!type) return null;
  return (
    <Button
      variant="ghost"
      size="sm"
      className="h-6 px-1.5 text-xs"
      aria-label={`Pin ${panel.title} to widgets`}
      onPress={async () => {
        if (await run('widget.pin', { server: server._id, type, panel: panel.id, refresh: '30s' })) toast('success', `Pinned ${panel.title} of ${server.hostname} to Pinned Widgets`);
      }}
    >
      Pin
    </Button>
  );
}

/**
 * A Grafana panel (SPEC §2: embedded with from/to, theme, panel id, refresh and the server's
 * address; in tabs 100 % wide, 200/400/600 high). A preset range is passed in Grafana's
 * relative form so Grafana's own refresh moves it; a custom range as its two timestamps.
 */
function GrafanaPanel({ config, grafanaUrl, server, panel, view, window }: { config: MonitoringConfig; grafanaUrl: string; server: Server; panel: PanelInfo; view: ServerView; window: { from: number; to: number } }) {
  const dark = useDarkClass();
  const preset = rangePresets.find((p) => p.value === view.range);
  const src = grafanaPanelUrl({
    grafanaUrl,
    os: server.operating_system,
    ipaddress: server.ipaddress,
    agentPort: server.agentPort,
    panelId: panel.id,
    from: preset ? `now-${preset.value}` : window.from,
    to: preset ? 'now' : window.to,
    theme: dark ? 'dark' : 'light',
    refresh: view.refresh,
    job: config.grafanaJob,
    datasource: config.grafanaDatasource,
  });
  const height = panelHeight(panel.kind, panel.tall);
  return (
    <iframe
      title={panel.title}
      src={src}
      width="100%"
      height={height}
      data-panel={panel.id}
      loading="lazy"
      className="w-full rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900"
    />
  );
}
