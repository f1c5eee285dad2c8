import { useEffect, useState } from 'react';
import { useConnection } from '../../lib/use-connection';

const clock = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/** "2 min 5 s": how old the data on screen is, counted while the banner shows. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * Issue 24 §3: a cut connection is said, not mistaken for a signed-out session. The person stays
 * where they are; the screen keeps its last data (greyed by the layout) and the app reconnects.
 */
export function ConnectionBanner() {
  const { lost, lastGoodAt } = useConnection();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!lost) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [lost]);
  if (!lost) return null;
  return (
    <div role="alert" data-testid="connection-banner" className="sticky top-14 z-20 border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
      <span className="font-semibold">Connection lost — showing data from {clock(lastGoodAt)}</span>
      <span> ({formatAge(now - lastGoodAt)} old). Reconnecting…</span>
    </div>
  );
}
