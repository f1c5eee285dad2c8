import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useDarkClass } from './use-dark-class';

export interface TimeSeries {
  label: string;
  values: readonly (number | null)[];
}

export interface TimeSeriesChartProps {
  /** Unix seconds, ascending. */
  timestamps: readonly number[];
  series: readonly TimeSeries[];
  /** Height of the drawing (axes included); the legend goes below it. */
  height: number;
  /** UTC or the browser's zone, for the time axis. */
  timeZone: 'utc' | 'local';
  /** One value with its unit, for the legend and the screen-reader summary. */
  formatValue: (value: number) => string;
  /** Labels of the y-axis ticks (one scale for all of them). */
  formatTicks?: (ticks: number[]) => string[];
  /** A cursor time for the legend, e.g. "2026-11-23 09:20:03 UTC". */
  formatTime: (unixSeconds: number) => string;
  /** Allowed steps between y ticks (e.g. whole GB for bytes); uPlot's decimal steps otherwise. */
  yIncrements?: number[];
  /** Fixed ends of the y scale (percentages: 0–100). */
  yMin?: number;
  yMax?: number;
  /** Name of the chart for assistive technology. */
  ariaLabel: string;
  emptyText?: string;
  /** false in small frames (a pinned widget's cell): the plot keeps the room; values stay in the screen-reader list. */
  showLegend?: boolean;
}

/** Distinct in light and dark. */
export const SERIES_COLORS = ['#3b82f6', '#22c55e', '#f59e0b', '#ef4444', '#a855f7', '#06b6d4', '#ec4899', '#84cc16', '#f97316', '#64748b'];

/**
 * The CPU modes' colours, the same on every chart that shows one (CPU Basic, CPU Load and CPU
 * Usage list them in different orders and subsets): `user` is never green on one chart and
 * purple on the next.
 */
const NAMED_COLORS: Record<string, string> = {
  user: SERIES_COLORS[0]!,
  system: SERIES_COLORS[3]!,
  privileged: SERIES_COLORS[3]!,
  idle: SERIES_COLORS[1]!,
  iowait: SERIES_COLORS[2]!,
  interrupt: SERIES_COLORS[4]!,
  irqs: SERIES_COLORS[4]!,
  dpc: SERIES_COLORS[5]!,
  other: SERIES_COLORS[9]!,
  steal: SERIES_COLORS[6]!,
};

const hash = (text: string) => [...text].reduce((h, c) => (h * 31 + c.codePointAt(0)!) >>> 0, 7);

/**
 * Each series' colour from its name, not its place: a named one (CPU modes) has its own; any
 * other starts at a colour its label hashes to and takes the next free one, so a series keeps
 * its colour from chart to chart unless two on one chart would share it.
 */
export function seriesColors(labels: readonly string[]): string[] {
  const used = new Set<string>();
  const out: (string | undefined)[] = labels.map((label) => {
    const named = NAMED_COLORS[label.trim().toLowerCase()];
    if (!named || used.has(named)) return undefined;
    used.add(named);
    return named;
  });
  return out.map((color, i) => {
    if (color) return color;
    // Grey is kept for `other`: a chart's only series should not be the dullest colour.
    let k = hash(labels[i]!.trim().toLowerCase()) % (SERIES_COLORS.length - 1);
    for (let n = 0; n < SERIES_COLORS.length && used.has(SERIES_COLORS[k]!); n++) k = (k + 1) % SERIES_COLORS.length;
    const chosen = SERIES_COLORS[k]!;
    used.add(chosen);
    return chosen;
  });
}

/**
 * Points where a value stands alone (no value on either side): a line needs two, so without a
 * dot a single result — a check's first, a series after a gap — would not show at all.
 */
export function isolatedPoints(values: readonly (number | null | undefined)[]): number[] {
  const alone: number[] = [];
  const has = (i: number) => i >= 0 && i < values.length && values[i] !== null && values[i] !== undefined && Number.isFinite(values[i]);
  for (let i = 0; i < values.length; i++) if (has(i) && !has(i - 1) && !has(i + 1)) alone.push(i);
  return alone;
}

const THEMES = {
  light: { axis: '#475569', grid: 'rgba(148, 163, 184, 0.35)' },
  dark: { axis: '#94a3b8', grid: 'rgba(71, 85, 105, 0.55)' },
};

/**
 * A time-series chart drawn by uPlot: width follows its container, colours follow the `dark`
 * class, times follow the UTC/Local choice. The legend shows the values under the cursor.
 */
export function TimeSeriesChart(props: TimeSeriesChartProps) {
  const { timestamps, series, height, timeZone, yMin, yMax, ariaLabel, emptyText = 'No data in this time range', showLegend = true } = props;
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const dark = useDarkClass();
  const [width, setWidth] = useState(0);
  // Formatters change identity on every render; uPlot keeps calling the latest ones.
  const fmt = useRef(props);
  fmt.current = props;

  useLayoutEffect(() => {
    const el = host.current;
    if (!el) return;
    setWidth(Math.floor(el.clientWidth));
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const w = Math.floor(entries[0]?.contentRect.width ?? 0);
      setWidth((prev) => (prev === w ? prev : w));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const data = useMemo(() => [timestamps as number[], ...series.map((s) => s.values as (number | null)[])] as uPlot.AlignedData, [timestamps, series]);
  const empty = timestamps.length === 0 || series.length === 0;
  const shape = `${series.map((s) => s.label).join('\u0000')}|${timeZone}|${dark}|${yMin}|${yMax}|${props.yIncrements?.length ?? 0}|${showLegend}`;
  const ready = width > 0 && !empty;

  useEffect(() => {
    const el = host.current;
    if (!el || !ready) return;
    const theme = dark ? THEMES.dark : THEMES.light;
    const colors = seriesColors(series.map((s) => s.label));
    const axis = (extra: Partial<uPlot.Axis> = {}): uPlot.Axis => ({ stroke: theme.axis, grid: { stroke: theme.grid, width: 1 }, ticks: { stroke: theme.grid, width: 1 }, ...extra });
    const opts: uPlot.Options = {
      width,
      height,
      tzDate: (ts) => (timeZone === 'utc' ? uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') : new Date(ts * 1000)),
      scales: { x: { time: true }, y: yMin !== undefined || yMax !== undefined ? { range: (_u, min, max) => [yMin ?? min, yMax ?? max] } : {} },
      series: [
        { value: (_u, v) => (v === null || v === undefined ? '--' : fmt.current.formatTime(v)) },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: colors[i],
          width: 1.5,
          // Dots only where a value stands alone; uPlot's own choice when the line is sparse.
          points: { filter: (u: uPlot, sidx: number, show: boolean) => (show ? null : nonEmpty(isolatedPoints(u.data[sidx] as (number | null)[]))) },
          // Away from the plot (no cursor index) the legend shows each series' newest value.
          value: (u: uPlot, v: number | null, sidx: number, idx: number | null) => {
            const shown = idx === null || idx === undefined ? newest(u.data[sidx] as (number | null)[] | undefined) : v;
            return shown === null || shown === undefined ? '--' : fmt.current.formatValue(shown);
          },
        })),
      ],
      axes: [
        axis(),
        axis({
          ...(fmt.current.yIncrements ? { incrs: fmt.current.yIncrements } : {}),
          values: (_u, ticks) => (fmt.current.formatTicks ? fmt.current.formatTicks(ticks) : ticks.map((t) => fmt.current.formatValue(t))),
          // Tick length (10) + gap (5) + the widest label as drawn, so no label is clipped.
          size: (_u, values) => (values?.length ? Math.ceil(Math.max(...values.map((v) => textWidth(String(v))))) + 22 : 50),
        }),
      ],
      legend: { show: showLegend, live: true },
      cursor: { drag: { x: true, y: false } },
    };
    const u = new uPlot(opts, data, el);
    plot.current = u;
    return () => {
      u.destroy();
      plot.current = null;
    };
    // Rebuilt only when the shape changes; data and size are pushed into the live chart below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape, ready]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);
  useEffect(() => {
    if (width > 0) plot.current?.setSize({ width, height });
  }, [width, height]);

  return (
    <div role="group" aria-label={ariaLabel} className="relative w-full text-xs text-slate-700 dark:text-slate-300" style={{ minHeight: height }}>
      <div ref={host} className="w-full [&_.u-legend]:text-xs" aria-hidden />
      {empty && (
        <p className="absolute inset-0 flex items-center justify-center text-sm text-slate-500 dark:text-slate-400" aria-hidden>
          {emptyText}
        </p>
      )}
      <ul className="sr-only">
        {empty ? <li>{emptyText}</li> : series.map((s) => <li key={s.label}>{`${s.label}: ${latest(s.values, props.formatValue)}`}</li>)}
      </ul>
    </div>
  );
}

/** uPlot's axis font. */
const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
let measurer: CanvasRenderingContext2D | null | undefined;
function textWidth(text: string): number {
  if (measurer === undefined) {
    measurer = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (measurer) measurer.font = AXIS_FONT;
  }
  return measurer ? measurer.measureText(text).width : text.length * 7.5;
}

const nonEmpty = (list: number[]) => (list.length ? list : null);

function newest(values: readonly (number | null)[] | undefined): number | null {
  if (!values) return null;
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    if (v !== null && v !== undefined && Number.isFinite(v)) return v;
  }
  return null;
}

function latest(values: readonly (number | null)[], format: (v: number) => string): string {
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    if (v !== null && v !== undefined && Number.isFinite(v)) return format(v);
  }
  return '--';
}
