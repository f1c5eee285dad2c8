import { useEffect, useState } from 'react';
import { refreshMs, resolveWindow, type RangeValue, type RefreshInterval } from '../../lib/time-range';

/**
 * How often the header badge and the gauges ask again: once per scrape (nothing newer exists
 * in between), but not more than every 5 s. 15 s until the monitoring settings have loaded.
 */
export function liveRefetchMs(scrapeIntervalSeconds: number | undefined): number {
  return Math.max(5, scrapeIntervalSeconds ?? 15) * 1000;
}

/**
 * The [from, to] window (unix ms) the charts of a metric tab share. A preset range ends "now",
 * and "now" moves on every auto-refresh tick, so every chart refetches with the same window;
 * a change of range starts a fresh window at once. A custom range stays where it is. Ticks
 * pause while the page is hidden and catch up when it shows again.
 */
export function useChartWindow(view: { range: RangeValue; from?: number; to?: number; refresh: RefreshInterval }): { from: number; to: number } {
  const key = `${view.range}|${view.from ?? ''}|${view.to ?? ''}`;
  const [state, setState] = useState(() => ({ key, now: Date.now() }));
  // A new range starts its window in this very render, so the charts ask once, not twice.
  let now = state.now;
  if (state.key !== key) {
    now = Date.now();
    setState({ key, now });
  }
  const custom = view.range === 'custom';
  const every = refreshMs(view.refresh);

  useEffect(() => {
    if (custom) return;
    let last = Date.now();
    const tick = () => {
      if (typeof document !== 'undefined' && document.hidden) return;
      last = Date.now();
      setState((s) => ({ ...s, now: last }));
    };
    const t = setInterval(tick, every);
    const onVisible = () => {
      if (!document.hidden && Date.now() - last >= every) tick();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(t);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [custom, every]);

  // Whole seconds: the chart endpoint works in seconds, and equal windows share cache entries.
  const rounded = Math.floor(now / 1000) * 1000;
  return resolveWindow(view, rounded);
}
