import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { Alert } from '../../../server/contract/alerts';
import { alertsListQueryOptions } from '../../api/alerts';
import { useCommandRunner } from '../../app/command-host/run-command';
import { alertsListQuery, type AlertListFilters } from './notifications-search';
import { useLiveInterval } from '../../lib/use-connection';

/** New alerts appear without a click; the Refresh button is for the impatient. */
const REFETCH_MS = 30_000;

/** One list of alerts (the page's or a server's) with the actions both screens offer, run as commands. */
export function useAlertList(filters: AlertListFilters, serverId?: string) {
  const runner = useCommandRunner();
  const query = useQuery({ ...alertsListQueryOptions(alertsListQuery(filters, serverId)), placeholderData: keepPreviousData, refetchInterval: useLiveInterval(REFETCH_MS) });
  // A refused or failed run is reported by the runner; a declined one needs nothing.
  const remove = useCallback((a: Alert) => void runner.run('alert.delete', { alert: a._id }), [runner]);
  // Issue 14: acknowledge an unowned alert, release an owned one (the commands say whose);
  // `canAck` asks the one of the two that the alert's button would run.
  const toggleAck = useCallback((a: Alert) => void (a.acknowledgement ? runner.run('alert.unack', { alert: a._id }) : runner.run('alert.ack', { alert: a._id })), [runner]);
  const canAck = useCallback((a: Alert) => runner.check(a.acknowledgement ? 'alert.unack' : 'alert.ack'), [runner]);
  const alerts = useMemo(() => {
    // Cards and rows are keyed by _id: an alert can move between pages while paging.
    const seen = new Map<string, Alert>();
    for (const a of query.data?.result.data ?? []) if (!seen.has(a._id)) seen.set(a._id, a);
    return [...seen.values()];
  }, [query.data]);
  return { query, alerts, total: query.data?.result.count ?? 0, remove, canDelete: runner.check('alert.delete'), toggleAck, canAck };
}
