import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { alertQueryOptions, alertsListQueryOptions } from '../api/alerts';
import { alertmanagerIntegrationQueryOptions } from '../api/integrations';
import { windowsListQueryOptions } from '../api/maintenance-windows';
import { silencesListQueryOptions } from '../api/silences';
import { alertsListQuery, notificationsSearchSchema, searchToFilters } from '../features/notifications/notifications-search';
import { maintenanceSearchSchema, silencesSearchSchema } from '../features/routing/routing-search';
import type { AppLayoutRoute } from './app-layout-route';
import { warm } from './warm';

const idParams = { parse: (p: Record<string, string>) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p: { id: string }) => p };

/**
 * /notifications and its children (SPEC §2 route table): the alerts list and the alert detail
 * drawer over it. Create and edit are declared as SPEC lists them but have no screen of their
 * own (docs/decisions.md): alerts are opened by the evaluator, and editing one is the drawer's
 * Action tab, so they lead there.
 */
export function notificationRoutes(parent: AppLayoutRoute) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/notifications',
    validateSearch: notificationsSearchSchema,
    loaderDeps: ({ search }) => search,
    loader: ({ context: { queryClient }, deps }) => warm(queryClient.ensureQueryData(alertsListQueryOptions(alertsListQuery(searchToFilters(deps))))),
    component: lazyRouteComponent(() => import('../features/notifications/notifications-page'), 'NotificationsPage'),
  });
  const show = createRoute({
    getParentRoute: () => list,
    path: 'show/$id',
    params: idParams,
    loader: ({ context: { queryClient }, params }) => warm(queryClient.ensureQueryData(alertQueryOptions(params.id))),
    component: lazyRouteComponent(() => import('../features/notifications/alert-drawer-route'), 'AlertDrawerRoute'),
  });
  const create = createRoute({
    getParentRoute: () => list,
    path: 'create',
    beforeLoad: () => {
      throw redirect({ to: '/notifications', replace: true });
    },
  });
  const edit = createRoute({
    getParentRoute: () => list,
    path: 'edit/$id',
    params: idParams,
    beforeLoad: ({ params }) => {
      throw redirect({ to: '/notifications/show/$id', params: { id: params.id }, replace: true });
    },
  });
  // Issue 14: Notifications › Silences and › Maintenance (list and calendar), drawers by `edit`.
  const silences = createRoute({
    getParentRoute: () => parent,
    path: '/notifications/silences',
    validateSearch: silencesSearchSchema,
    loaderDeps: ({ search }) => ({ state: search.state ?? 'current' }),
    loader: ({ context: { queryClient }, deps }) => warm(queryClient.ensureQueryData(silencesListQueryOptions(deps.state))),
    component: lazyRouteComponent(() => import('../features/routing/silences-page'), 'SilencesPage'),
  });
  const maintenance = createRoute({
    getParentRoute: () => parent,
    path: '/notifications/maintenance',
    validateSearch: maintenanceSearchSchema,
    loader: ({ context: { queryClient } }) => warm(queryClient.ensureQueryData(windowsListQueryOptions())),
    component: lazyRouteComponent(() => import('../features/routing/maintenance-page'), 'MaintenancePage'),
  });
  // Issue 15: Notifications › Integrations (Alertmanager both ways).
  const integrations = createRoute({
    getParentRoute: () => parent,
    path: '/notifications/integrations',
    loader: ({ context: { queryClient } }) => warm(queryClient.ensureQueryData(alertmanagerIntegrationQueryOptions())),
    component: lazyRouteComponent(() => import('../features/integrations/integrations-page'), 'IntegrationsPage'),
  });
  return [list.addChildren([show, create, edit]), silences, maintenance, integrations] as const;
}
