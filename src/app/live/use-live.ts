import { useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onReach } from '../../api/client';
import { LiveConnection, type LiveMessage } from '../../api/live';
import { markFresh, markReached, markStream } from '../../lib/connection-state';
import { emitLiveMessage } from '../../lib/live-events';

/** Changes arriving together (a tick opening five alerts) make one refetch per query, not five. */
const BATCH_MS = 150;

type Match = (key: readonly unknown[]) => boolean;
const prefix =
  (...head: unknown[]): Match =>
  (key) =>
    head.every((part, i) => key[i] === part);
/** Charts and forecasts have their own refresh (the time-range bar): new figures do not refetch them. */
const serverViews: Match = (key) => key[0] === 'servers' && key[1] !== 'chart' && key[1] !== 'forecast' && key[1] !== 'selector';

/** What one pushed change makes stale (the query-key factory's prefixes, src/api/query-keys.ts). */
export function staleFor(message: LiveMessage): Match[] {
  switch (message.kind) {
    case 'alert':
      // Lists (Notifications, a server's tab, Instance Down), the drawer, its delivery log, the
      // Alerts Summary (tab title, sidebar), the incident report.
      return [prefix('alerts'), prefix('alert-deliveries'), prefix('analytics'), prefix('incident-report'), prefix('notification-groups', 'reach')];
    case 'server':
      return [serverViews, prefix('analytics'), prefix('alerts')];
    case 'servers':
      return [serverViews, prefix('analytics')];
    case 'services':
      return [prefix('servers', 'services'), prefix('analytics', 'services')];
    case 'check':
      return [prefix('checks'), prefix('status-pages')];
    case 'history':
      return [prefix('command-history'), prefix('incident-report')];
    case 'schedule':
      // The On Call screens (list, a schedule, its final schedule, who is on call) and the top
      // bar's current or next shift: any schedule's change may move anyone's shift.
      return [prefix('oncall')];
    default:
      return [];
  }
}

function invalidate(queryClient: QueryClient, matches: Match[]): void {
  if (!matches.length) return;
  void queryClient.invalidateQueries({ predicate: (query: Query) => matches.some((m) => m(query.queryKey)) });
}

/**
 * The tab's live stream (one per tab, opened by the signed-in layout): each change pushed
 * invalidates the queries showing it, so the dashboard, lists, an open drawer, History and the
 * incident report refetch within moments. Invalidating keeps what a screen holds (its scroll,
 * selection, marks, a half-typed filter): the query refetches under the same key and the screen
 * re-renders with the new rows.
 */
export function useLive(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let pending: Match[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const matches = pending;
      pending = [];
      invalidate(queryClient, matches);
    };
    let openedAt = 0;
    let wasLost = false;
    const connection = new LiveConnection({
      onMessage: (message) => {
        markFresh();
        pending.push(...staleFor(message));
        timer ??= setTimeout(flush, BATCH_MS);
        emitLiveMessage(message);
      },
      onRestart: (why) => {
        if (why === 'first') {
          // What was fetched before the stream opened may have missed a change made meanwhile.
          void queryClient.invalidateQueries({ predicate: (query) => query.state.dataUpdatedAt < openedAt });
        } else {
          void queryClient.invalidateQueries();
        }
      },
      onStatus: (status) => {
        markStream(status);
        if (status === 'lost') wasLost = true;
        if (status === 'live' && wasLost) {
          // Back after a cut: whatever failed or went stale meanwhile is fetched again.
          wasLost = false;
          void queryClient.invalidateQueries();
        }
      },
    });
    const stopReach = onReach(markReached);
    openedAt = Date.now();
    connection.start();
    return () => {
      stopReach();
      connection.stop();
      clearTimeout(timer);
    };
  }, [queryClient]);
}
