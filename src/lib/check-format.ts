import type { Tone } from './format';

/** A check's state as shown: Up (green), Down (red), Paused and Not run yet (grey). */
export function checkStateDisplay(c: { state: string; paused: boolean }): { label: string; tone: Tone } {
  if (c.paused) return { label: 'Paused', tone: 'none' };
  if (c.state === 'up') return { label: 'Up', tone: 'green' };
  if (c.state === 'down') return { label: 'Down', tone: 'red' };
  return { label: 'Not run yet', tone: 'none' };
}

/** "123 ms", "1.24 s"; '--' when unknown. */
export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '--';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** An uptime share with up to three decimals as people read them ("99.95%", "100%"); '--' when unknown. */
export function formatUptimeShare(percent: number | null | undefined): string {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return '--';
  if (percent === 100) return '100%';
  return `${percent >= 99 ? percent.toFixed(percent >= 99.99 ? 3 : 2) : percent.toFixed(1)}%`;
}

/** Uptime colours: green from 99.5 %, orange from 95 %, red below. */
export function uptimeTone(percent: number | null | undefined): Tone {
  if (percent === null || percent === undefined) return 'none';
  if (percent >= 99.5) return 'green';
  if (percent >= 95) return 'orange';
  return 'red';
}

/** "in 12 days" / "expired 2 days ago" for a certificate. */
export function formatCertDays(days: number | null | undefined): string {
  if (days === null || days === undefined) return '--';
  if (days < 0) return `expired ${Math.ceil(-days)} day${Math.ceil(-days) === 1 ? '' : 's'} ago`;
  const d = Math.floor(days);
  return d === 0 ? 'expires today' : `${d} day${d === 1 ? '' : 's'} left`;
}
