import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import { dashboardSearchSchema } from '../lib/dashboard-view';

/** / : the Dashboard (SPEC §2 Dashboard); thresholds and the Instance Down table's state are URL search. */
export function dashboardRoute<P extends AnyRoute>(parent: P) {
  return createRoute({
    getParentRoute: () => parent,
    path: '/',
    validateSearch: dashboardSearchSchema,
    component: lazyRouteComponent(() => import('../features/dashboard/dashboard-page'), 'DashboardPage'),
  });
}
