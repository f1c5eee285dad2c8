import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import * as z from 'zod/mini';

import { userQueryOptions, usersListQueryOptions } from '../api/users';
import { usersListQuery, usersSearchSchema } from '../features/users/users-search';
import { appLayoutRoute } from './app-layout-route';
import { warm } from './warm';
import { serverRoutes } from './server-routes';
import { serverDetailRoute } from './server-detail-route';
import { checkRoutes } from './check-routes';
import { statusPageRoutes } from './status-page-routes';
import { oncallRoutes } from './oncall-routes';
import { dashboardRoute } from './dashboard-route';
import { notificationRoutes } from './notification-routes';
import { notificationGroupRoutes } from './notification-group-routes';
import { pinnedWidgetRoutes } from './pinned-widget-routes';
import { incidentReportRoute } from './incident-report-route';

const usersRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/users',
  validateSearch: usersSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => warm(queryClient.ensureQueryData(usersListQueryOptions(usersListQuery(deps)))),
  component: lazyRouteComponent(() => import('../features/users/users-page'), 'UsersPage'),
});
const userShowRoute = createRoute({
  getParentRoute: () => usersRoute,
  path: 'show/$id',
  params: { parse: (p) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p) => p },
  loader: ({ context: { queryClient }, params }) => warm(queryClient.ensureQueryData(userQueryOptions(params.id))),
  component: lazyRouteComponent(() => import('./user-drawer-route'), 'UserDrawerWithPaging'),
});
const userCreateRoute = createRoute({
  getParentRoute: () => usersRoute,
  path: 'create',
  component: lazyRouteComponent(() => import('../features/users/create-user-modal'), 'CreateUserRoute'),
});

export { appLayoutRoute };

/** SPEC §2 route table. Each area declares its routes in its own module; this file joins them. */
export const appRoutes = [
  dashboardRoute(appLayoutRoute),
  ...serverRoutes(appLayoutRoute),
  serverDetailRoute(appLayoutRoute),
  ...checkRoutes(appLayoutRoute),
  ...notificationRoutes(appLayoutRoute),
  ...notificationGroupRoutes(appLayoutRoute),
  ...pinnedWidgetRoutes(appLayoutRoute),
  incidentReportRoute(appLayoutRoute),
  ...statusPageRoutes(appLayoutRoute),
  ...oncallRoutes(appLayoutRoute),
  usersRoute.addChildren([userShowRoute, userCreateRoute]),
];
