import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { can } from '../../server/contract/permissions';
import { monitoringConfigQueryOptions, serverMetricsListQueryOptions, serverQueryOptions } from '../api/servers';
import { serversListQuery, serversSearchSchema } from '../features/servers/servers-search';
import type { AppLayoutRoute } from './app-layout-route';
import { warm } from './warm';

/**
 * /servers, /servers/create, /servers/edit/$id (SPEC §2 route table). Create and edit are
 * drawers over the list (docs/decisions.md), so they are children of the list route and keep
 * its URL state.
 */
export function serverRoutes(parent: AppLayoutRoute) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/servers',
    validateSearch: serversSearchSchema,
    loaderDeps: ({ search }) => search,
    loader: ({ context: { queryClient }, deps }) =>
      warm(queryClient.ensureQueryData(serverMetricsListQueryOptions(serversListQuery(deps))), queryClient.ensureQueryData(monitoringConfigQueryOptions())),
    component: lazyRouteComponent(() => import('../features/servers/servers-page'), 'ServersPage'),
  });
  const create = createRoute({
    getParentRoute: () => list,
    path: 'create',
    component: lazyRouteComponent(() => import('../features/servers/server-form-drawer'), 'CreateServerRoute'),
  });
  const edit = createRoute({
    getParentRoute: () => list,
    path: 'edit/$id',
    params: { parse: (p) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p) => p },
    // Only for those who may edit: the drawer sends anyone else back without asking (server.edit's permission).
    loader: ({ context: { queryClient, user }, params }) => {
      if (can(user.role, 'servers.write')) warm(queryClient.ensureQueryData(serverQueryOptions(params.id)));
    },
    component: lazyRouteComponent(() => import('../features/servers/server-form-drawer'), 'EditServerRoute'),
  });
  return [list.addChildren([create, edit])] as const;
}
