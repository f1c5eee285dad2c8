import { createRoute, lazyRouteComponent, redirect, type AnyRoute } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { notificationsSearchSchema } from '../features/notifications/notifications-search';
import { maintenanceSearchSchema, silencesSearchSchema } from '../features/routing/routing-search';

const idParams = { parse: (p: Record<string, string>) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p: { id: string }) => p };

/**
 * /notifications and its children (SPEC §2 route table): the alerts list and the alert detail
 * drawer over it. Create and edit are declared as SPEC lists them but have no screen of their
 * own (docs/decisions.md): alerts are opened by the evaluator, and editing one is the drawer's
 * Action tab, so they lead there.
 */
export function notificationRoutes<P extends AnyRoute>(parent: P) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/notifications',
    validateSearch: notificationsSearchSchema,
    component: lazyRouteComponent(() => import('../features/notifications/notifications-page'), 'NotificationsPage'),
  });
  const show = createRoute({
    getParentRoute: () => list,
    path: 'show/$id',
    params: idParams,
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
    component: lazyRouteComponent(() => import('../features/routing/silences-page'), 'SilencesPage'),
  });
  const maintenance = createRoute({
    getParentRoute: () => parent,
    path: '/notifications/maintenance',
    validateSearch: maintenanceSearchSchema,
    component: lazyRouteComponent(() => import('../features/routing/maintenance-page'), 'MaintenancePage'),
  });
  // Issue 15: Notifications › Integrations (Alertmanager both ways).
  const integrations = createRoute({
    getParentRoute: () => parent,
    path: '/notifications/integrations',
    component: lazyRouteComponent(() => import('../features/integrations/integrations-page'), 'IntegrationsPage'),
  });
  return [list.addChildren([show, create, edit]), silences, maintenance, integrations] as const;
}
