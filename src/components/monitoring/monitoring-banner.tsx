import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { monitoringHealthQueryOptions } from '../../api/ops';

/** How often the banner asks whether figures are fresh: it must appear without a reload. */
const REFETCH_MS = 15_000;

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * "Never blind without saying so" (issue 12): while Opsdeck has no fresh figures (the metric
 * backend unreachable, the collector stalled) or no leader reports on them, a banner names the
 * cause, says how many servers are Stale, and links the "Monitoring backend unreachable" alert.
 * Nothing is shown while figures are fresh. The cause is text as the server wrote it, never markup.
 */
export function MonitoringBanner() {
  const query = useQuery({ ...monitoringHealthQueryOptions(), refetchInterval: REFETCH_MS });
  const health = query.data?.result;
  if (!health || health.status === 'ok' || health.status === 'off') return null;
  const blind = health.status === 'blind';
  return (
    <div
      role="alert"
      data-testid="monitoring-banner"
      className="flex flex-wrap items-start gap-x-4 gap-y-2 rounded-md border border-orange-300 bg-orange-50 p-3 text-sm text-orange-900 dark:border-orange-800 dark:bg-orange-950 dark:text-orange-100"
    >
      <div className="mr-auto min-w-0 space-y-1">
        <p className="font-semibold">
          {blind ? 'Monitoring is blind: no fresh figures' : 'Monitoring status unknown'}
          {blind && health.since ? ` since ${time(health.since)}` : ''}
        </p>
        {health.cause && <p className="break-words">{health.cause}</p>}
        {blind && (
          <p>
            {health.staleServers === 1 ? '1 server shows' : `${health.staleServers} servers show`} as Stale with their last figures. Their alerts can neither fire nor resolve until figures come back.
          </p>
        )}
      </div>
      {health.alertId && (
        <Link to="/notifications/show/$id" params={{ id: health.alertId }} className="font-medium whitespace-nowrap text-orange-900 underline dark:text-orange-100">
          View alert
        </Link>
      )}
    </div>
  );
}
