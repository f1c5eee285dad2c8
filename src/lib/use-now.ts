import { useEffect, useState } from 'react';

/** The time now, re-read every `everyMs` (for "3 minutes ago" texts that must age on an open page). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
