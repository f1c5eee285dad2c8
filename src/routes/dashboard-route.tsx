import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { alertsListQueryOptions } from '../api/alerts';
import {
  alertsSummaryQueryOptions,
  downServersQueryOptions,
  nodesSummaryQueryOptions,
  servicesDownQueryOptions,
  topCpuQueryOptions,
  topDiskQueryOptions,
  topMemoryQueryOptions,
} from '../api/analytics';
import { dashboardSearchSchema, instanceDownQuery, thresholdOf, type DashboardSearch } from '../lib/dashboard-view';

// ensureQueryData, not prefetchQuery: a loader re-run (a filter typed in Instance Down) must not
// refetch every card; only a card with nothing cached yet asks. Failures show on the card itself.
const warm = (queryClient: QueryClient, options: object) => void queryClient.ensureQueryData(options as never).catch(() => {});

/**
 * Starts every card's request while the screen's code is still downloading: the cards read
 * the same query options, so they find the answers on the way (docs/benchmarks.md "Dashboard").
 * Not awaited: each card shows its own loading state, and one slow figure holds up nothing.
 */
function prefetchDashboard(queryClient: QueryClient, search: DashboardSearch): void {
  warm(queryClient, nodesSummaryQueryOptions());
  warm(queryClient, alertsSummaryQueryOptions());
  warm(queryClient, servicesDownQueryOptions());
  warm(queryClient, downServersQueryOptions());
  warm(queryClient, topCpuQueryOptions(thresholdOf(search, 'cpu')));
  warm(queryClient, topMemoryQueryOptions(thresholdOf(search, 'memory')));
  warm(queryClient, topDiskQueryOptions(thresholdOf(search, 'disk')));
  warm(queryClient, alertsListQueryOptions(instanceDownQuery(search)));
}

/** / : the Dashboard (SPEC §2 Dashboard); thresholds and the Instance Down table's state are URL search. */
export function dashboardRoute<P extends AnyRoute>(parent: P) {
  return createRoute({
    getParentRoute: () => parent,
    path: '/',
    validateSearch: dashboardSearchSchema,
    loaderDeps: ({ search }) => search,
    loader: ({ context, deps }) => prefetchDashboard((context as { queryClient: QueryClient }).queryClient, deps),
    component: lazyRouteComponent(() => import('../features/dashboard/dashboard-page'), 'DashboardPage'),
  });
}
