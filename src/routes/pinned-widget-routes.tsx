import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { monitoringConfigQueryOptions } from '../api/servers';
import type { AppLayoutRoute } from './app-layout-route';
import { warm } from './warm';

/**
 * /pinned-widgets and its children (SPEC §2 route table). create, edit/$id and show/$id are
 * drawers over the wall (docs/decisions.md), so they are children of the list route. The widgets
 * themselves are in the browser's storage; what every card asks the API first is the monitoring
 * configuration (built-in charts or Grafana frames), so that is what the loader starts.
 */
export function pinnedWidgetRoutes(parent: AppLayoutRoute) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/pinned-widgets',
    loader: ({ context: { queryClient } }) => warm(queryClient.ensureQueryData(monitoringConfigQueryOptions())),
    component: lazyRouteComponent(() => import('../features/pinned-widgets/pinned-widgets-page'), 'PinnedWidgetsPage'),
  });
  const idParams = { parse: (p: Record<string, string>) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p: { id: string }) => p };
  const create = createRoute({
    getParentRoute: () => list,
    path: 'create',
    component: lazyRouteComponent(() => import('../features/pinned-widgets/add-widget-drawer'), 'AddWidgetRoute'),
  });
  const edit = createRoute({
    getParentRoute: () => list,
    path: 'edit/$id',
    params: idParams,
    component: lazyRouteComponent(() => import('../features/pinned-widgets/widget-drawers'), 'EditWidgetRoute'),
  });
  const show = createRoute({
    getParentRoute: () => list,
    path: 'show/$id',
    params: idParams,
    component: lazyRouteComponent(() => import('../features/pinned-widgets/widget-drawers'), 'ShowWidgetRoute'),
  });
  return [list.addChildren([create, edit, show])] as const;
}
