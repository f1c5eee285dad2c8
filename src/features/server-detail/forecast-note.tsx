import { useQuery } from '@tanstack/react-query';
import type { Forecast } from '../../../server/contract/servers';
import { serverForecastsQueryOptions } from '../../api/servers';
import { cx } from '../../components/ui/cx';

/** "in 14.5 hours", "in 3 days", "in 20 minutes". */
export function formatTimeLeft(hours: number): string {
  if (hours < 1) return `in ${Math.max(1, Math.round(hours * 60))} minutes`;
  if (hours < 48) return `in ${Math.round(hours * 10) / 10} hours`;
  return `in ${Math.round(hours / 24)} days`;
}

/** The sentence a forecast makes; exported for its unit test. */
export function forecastText(what: 'Disk' | 'Memory', f: Forecast | null): { text: string; urgent: boolean } {
  if (!f) return { text: `${what} forecast: not enough history yet (it needs 2 of the last 6 hours).`, urgent: false };
  const rate = `${f.slopePerHour >= 0 ? '+' : ''}${(Math.round(f.slopePerHour * 100) / 100).toFixed(2)}% an hour`;
  if (f.hoursLeft === null || !f.fullAt) return { text: `${what} forecast: not filling (${rate} over the last 6 hours).`, urgent: false };
  const at = new Date(f.fullAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return { text: `${what} ${what === 'Disk' ? 'full' : 'exhausted'} ${formatTimeLeft(f.hoursLeft)} (around ${at}) at ${rate}, by the trend of the last 6 hours.`, urgent: f.hoursLeft <= 24 };
}

/** Issue 16: the estimated time to full on the Disk and Memory tabs. */
export function ForecastNote({ serverId, metric }: { serverId: string; metric: 'disk' | 'memory' }) {
  const q = useQuery(serverForecastsQueryOptions(serverId));
  if (!q.data) return null;
  const { text, urgent } = forecastText(metric === 'disk' ? 'Disk' : 'Memory', q.data.result[metric]);
  return (
    <p
      data-testid={`${metric}-forecast`}
      className={cx(
        'rounded-md border px-3 py-2 text-sm',
        urgent ? 'border-orange-300 bg-orange-50 text-orange-900 dark:border-orange-800 dark:bg-orange-950 dark:text-orange-200' : 'border-slate-200 text-slate-700 dark:border-slate-700 dark:text-slate-300',
      )}
    >
      {text}
    </p>
  );
}
