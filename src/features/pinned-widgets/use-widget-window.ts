import { useEffect, useState } from 'react';

/** The chart window of a pinned widget: the last hour, the same span as the server detail's default. */
export const WIDGET_SPAN_MS = 3_600_000;

/**
 * [from, to] in unix ms ending "now", where now moves every `everyMs` (the widget's refresh
 * interval, SPEC §9: 30 s unless chosen). Ticks pause while the page is hidden and catch up when
 * it shows again, so a wall of widgets in a background tab costs nothing.
 */
export function useWidgetWindow(everyMs: number): { from: number; to: number } {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    let last = Date.now();
    const tick = () => {
      if (document.hidden) return;
      last = Date.now();
      setNow(last);
    };
    const t = setInterval(tick, everyMs);
    const onVisible = () => {
      if (!document.hidden && Date.now() - last >= everyMs) tick();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(t);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [everyMs]);
  // Whole seconds, as the chart endpoint takes them.
  const to = Math.floor(now / 1000) * 1000;
  return { from: to - WIDGET_SPAN_MS, to };
}
