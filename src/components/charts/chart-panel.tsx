import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ChartData } from '../../../server/contract/servers';
import { chartQueryOptions } from '../../api/servers';
import { Button } from '../ui/button';
import { cx } from '../ui/cx';
import { BarGauge, Gauge, MeterBar, toneText } from '../ui/gauge';
import { Skeleton } from '../ui/skeleton';
import { TimeSeriesChart } from '../ui/time-series-chart';
import { asPercent, axisIncrements, formatAxisTicks, formatChartTime, formatChartValue, gaugeTone, isPercentUnit, lastValue } from '../../lib/chart-format';
import { panelHeight, type PanelInfo, type ServerOs } from '../../lib/server-panels';
import type { TimeZoneChoice } from '../../lib/time-range';

export const NO_DATA = 'No data for this range';

/** What a chart says when its answer holds only part of the panel's lines (the API's `truncated`). */
export function linesCutText({ shown, total }: { shown: number; total: number }): string {
  return `Showing ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} lines: this server reports more series than one chart draws`;
}
/** Room the title row and the legend take from a time-series panel's height. */
const CHROME = 84;
/** Room the title row takes in a small fixed frame, where the legend is left out. */
const COMPACT_CHROME = 54;
/** Fixed frames lower than this drop the time-series legend so the plot stays readable. */
const COMPACT_BELOW = 320;

export interface ChartPanelProps {
  serverId: string;
  os: ServerOs;
  panel: PanelInfo;
  window: { from: number; to: number };
  tz: TimeZoneChoice;
  /** A name of its own (a pinned widget's title) instead of the panel's. */
  title?: string;
  /** A line under the title (e.g. the server a pinned widget shows). */
  subtitle?: ReactNode;
  /** The whole panel's height in px when its container fixes it (a grid cell); by kind otherwise. */
  height?: number;
  /** Buttons at the right of the title row (pin, remove). */
  actions?: ReactNode;
  /** Extra classes of the title row (a grid's drag handle). */
  headerClassName?: string;
  /**
   * A one-line tile (a server tab's row of stats and gauges): the title and the figure side by
   * side, a gauge as a thin bar. The header's Server Utilization already draws the arcs, and a
   * row of 200 px tiles pushed the tab's first chart below the fold.
   */
  compact?: boolean;
}

/**
 * One built-in chart panel: asks the chart API for the panel over the window and draws it by
 * kind — stat (the newest value of each series), gauge (0–100 arc for percentages), bar gauge
 * (one bar per series) or time series (uPlot). While a newer window loads, the previous lines
 * stay; a failed refresh keeps them and says so. Shared by the server detail's tabs and the
 * pinned widgets.
 */
export function ChartPanel({ serverId, os, panel, window, tz, title: ownTitle, subtitle, height: fixedHeight, actions, headerClassName, compact = false }: ChartPanelProps) {
  const query = useQuery({
    ...chartQueryOptions(serverId, panel.id, window.from, window.to),
    placeholderData: keepPreviousData,
    // Each refresh tick is a new window, so a new cache entry: let old ones go soon.
    gcTime: 30_000,
  });
  const height = fixedHeight ?? panelHeight(panel.kind, panel.tall);
  const data = query.data?.result;
  const title = ownTitle ?? data?.panel.title ?? panel.title;
  // A subtitle line takes room from the drawing.
  const bodyHeight = subtitle ? height - 18 : height;

  let body;
  if (query.isPending) {
    body = <Skeleton className="h-full w-full" />;
  } else if (query.isError && !data) {
    body = (
      <div role="alert" className="flex h-full flex-col items-center justify-center gap-2 text-center text-sm text-red-700 dark:text-red-300">
        <span>Could not load this chart. {query.error.message}</span>
        <Button size="sm" onPress={() => void query.refetch()} isDisabled={query.isFetching}>
          Retry
        </Button>
      </div>
    );
  } else if (!data || !hasData(data)) {
    body = <p className="flex h-full items-center justify-center text-sm text-slate-500 dark:text-slate-400">{NO_DATA}</p>;
  } else {
    body = <PanelBody data={data} height={bodyHeight} tz={tz} os={os} compact={fixedHeight !== undefined && bodyHeight < COMPACT_BELOW} />;
  }

  if (compact && panel.kind !== 'timeseries' && panel.kind !== 'bargauge') {
    const figure = query.isPending ? (
      <Skeleton className="h-7 w-20" />
    ) : query.isError && !data ? (
      <span role="alert" className="flex items-center gap-1 text-xs text-red-700 dark:text-red-300">
        Could not load. {query.error.message}
        <Button size="sm" variant="ghost" className="h-6 px-1.5 text-xs" onPress={() => void query.refetch()} isDisabled={query.isFetching}>
          Retry
        </Button>
      </span>
    ) : !data || !hasData(data) ? (
      <span className="text-sm text-slate-500 dark:text-slate-400">{NO_DATA}</span>
    ) : (
      <CompactFigure data={data} />
    );
    return (
      <section
        aria-label={title}
        data-panel={panel.id}
        data-compact
        aria-busy={query.isFetching || undefined}
        className="flex min-h-16 items-center gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2 dark:border-slate-700 dark:bg-slate-900"
      >
        <h3 className="mr-auto min-w-0 truncate text-sm font-semibold">{title}</h3>
        {figure}
        {actions}
      </section>
    );
  }

  return (
    <section
      aria-label={title}
      data-panel={panel.id}
      aria-busy={query.isFetching || undefined}
      className={cx('flex flex-col rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900', fixedHeight !== undefined && 'overflow-hidden')}
      style={fixedHeight !== undefined ? { height } : { minHeight: height }}
    >
      <div className={cx('mb-2 flex items-center gap-2', headerClassName)}>
        <div className="mr-auto min-w-0">
          <h3 className="truncate text-sm font-semibold">{title}</h3>
          {subtitle && <p className="truncate text-xs text-slate-500 dark:text-slate-400">{subtitle}</p>}
          {data?.truncated && <p className="truncate text-xs text-orange-700 dark:text-orange-300">{linesCutText(data.truncated)}</p>}
        </div>
        {query.isError && data && (
          <span role="alert" className="flex items-center gap-1 text-xs text-red-700 dark:text-red-300">
            Refresh failed
            <Button size="sm" variant="ghost" className="h-6 px-1.5 text-xs" onPress={() => void query.refetch()}>
              Retry
            </Button>
          </span>
        )}
        {actions}
      </div>
      <div className="min-h-0 flex-1" style={{ minHeight: panel.kind === 'timeseries' ? undefined : bodyHeight - 48 }}>
        {body}
      </div>
    </section>
  );
}

/** A tile's figure on one line: a percentage gauge as a bar meter, stats as their newest values. */
function CompactFigure({ data }: { data: ChartData }) {
  const { unit, kind, title } = data.panel;
  if (kind === 'gauge' && isPercentUnit(unit) && data.series.length === 1) {
    const v = lastValue(data.series[0]!.values);
    const pct = asPercent(v, unit);
    return <MeterBar label={title} value={pct} display={formatChartValue(v, unit)} tone={gaugeTone(pct)} />;
  }
  const single = data.series.length === 1;
  return (
    <dl className="flex flex-wrap items-baseline justify-end gap-x-4">
      {data.series.map((s) => {
        const v = lastValue(s.values);
        const pct = isPercentUnit(unit) ? asPercent(v, unit) : null;
        return (
          <div key={s.label} className="flex items-baseline gap-1.5">
            <dt className={cx('text-xs text-slate-500 dark:text-slate-400', single && 'sr-only')}>{s.label}</dt>
            <dd className={cx('text-xl font-semibold tabular-nums', pct !== null ? toneText[gaugeTone(pct)] : 'text-slate-800 dark:text-slate-100')}>{formatChartValue(v, unit)}</dd>
          </div>
        );
      })}
    </dl>
  );
}

function hasData(data: ChartData): boolean {
  return data.timestamps.length > 0 && data.series.some((s) => s.values.some((v) => v !== null && Number.isFinite(v)));
}

function PanelBody({ data, height, tz, compact = false }: { data: ChartData; height: number; tz: TimeZoneChoice; os: ServerOs; compact?: boolean }) {
  const { unit, kind, title } = data.panel;
  const format = (v: number) => formatChartValue(v, unit);

  if (kind === 'timeseries') {
    const percent = isPercentUnit(unit);
    return (
      <TimeSeriesChart
        ariaLabel={`${title} over time`}
        timestamps={data.timestamps}
        series={data.series}
        height={height - (compact ? COMPACT_CHROME : CHROME)}
        showLegend={!compact}
        timeZone={tz}
        formatValue={format}
        formatTicks={(ticks) => formatAxisTicks(ticks, unit)}
        formatTime={(t) => formatChartTime(t, tz)}
        {...(percent ? { yMin: 0 } : {})}
        yIncrements={axisIncrements(unit)}
        emptyText={NO_DATA}
      />
    );
  }

  if (kind === 'bargauge') {
    const percent = isPercentUnit(unit);
    return (
      <BarGauge
        className="pt-1"
        items={data.series.map((s) => {
          const v = lastValue(s.values);
          const pct = percent ? asPercent(v, unit) : null;
          return { label: s.label, value: percent ? pct : v, display: formatChartValue(v, unit), tone: percent ? gaugeTone(pct) : 'none' };
        })}
        {...(percent ? {} : { max: Math.max(1, ...data.series.map((s) => lastValue(s.values) ?? 0)) })}
      />
    );
  }

  if (kind === 'gauge' && isPercentUnit(unit) && data.series.length === 1) {
    const v = lastValue(data.series[0]!.values);
    const pct = asPercent(v, unit);
    return (
      <div className="h-full" style={{ height: height - 60 }}>
        <Gauge label={title} value={pct} display={formatChartValue(v, unit)} tone={gaugeTone(pct)} />
      </div>
    );
  }

  // Stats, and gauges without a natural 0–100 scale (rates): the newest value of each series.
  const single = data.series.length === 1;
  return (
    <dl className={cx('flex h-full flex-wrap content-center items-center justify-center gap-x-6 gap-y-2', single && 'flex-col')}>
      {data.series.map((s) => {
        const v = lastValue(s.values);
        const pct = isPercentUnit(unit) ? asPercent(v, unit) : null;
        return (
          <div key={s.label} className="flex flex-col items-center">
            <dt className={cx('text-xs text-slate-500 dark:text-slate-400', single && 'sr-only')}>{s.label}</dt>
            <dd className={cx('font-semibold tabular-nums', single ? 'text-3xl' : 'text-xl', pct !== null ? toneText[gaugeTone(pct)] : 'text-slate-800 dark:text-slate-100')}>{formatChartValue(v, unit)}</dd>
          </div>
        );
      })}
    </dl>
  );
}
