import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
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
import { dashboardSearchSchema, instanceDownQuery, thresholdOf } from '../lib/dashboard-view';
import type { AppLayoutRoute } from './app-layout-route';
import { warm } from './warm';

/**
 * / : the Dashboard (SPEC §2 Dashboard); thresholds and the Instance Down table's state are URL
 * search. The loader starts every card's request while the screen's code is still downloading:
 * the cards read the same query options, so they find the answers on the way
 * (docs/benchmarks.md "npm run bench -- dashboard").
 */
export function dashboardRoute(parent: AppLayoutRoute) {
  return createRoute({
    getParentRoute: () => parent,
    path: '/',
    validateSearch: dashboardSearchSchema,
    loaderDeps: ({ search }) => search,
    loader: ({ context: { queryClient }, deps }) =>
      warm(
        queryClient.ensureQueryData(nodesSummaryQueryOptions()),
        queryClient.ensureQueryData(alertsSummaryQueryOptions()),
        queryClient.ensureQueryData(servicesDownQueryOptions()),
        queryClient.ensureQueryData(downServersQueryOptions()),
        queryClient.ensureQueryData(topCpuQueryOptions(thresholdOf(deps, 'cpu'))),
        queryClient.ensureQueryData(topMemoryQueryOptions(thresholdOf(deps, 'memory'))),
        queryClient.ensureQueryData(topDiskQueryOptions(thresholdOf(deps, 'disk'))),
        queryClient.ensureQueryData(alertsListQueryOptions(instanceDownQuery(deps))),
      ),
    component: lazyRouteComponent(() => import('../features/dashboard/dashboard-page'), 'DashboardPage'),
  });
}
