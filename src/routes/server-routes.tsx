import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { serversSearchSchema } from '../features/servers/servers-search';

/**
 * /servers, /servers/create, /servers/edit/$id (SPEC §2 route table). Create and edit are
 * drawers over the list (docs/decisions.md), so they are children of the list route and keep
 * its URL state.
 */
export function serverRoutes<P extends AnyRoute>(parent: P) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/servers',
    validateSearch: serversSearchSchema,
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
    component: lazyRouteComponent(() => import('../features/servers/server-form-drawer'), 'EditServerRoute'),
  });
  return [list.addChildren([create, edit])] as const;
}
