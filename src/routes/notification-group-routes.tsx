import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { groupsSearchSchema } from '../features/notification-groups/groups-search';

const idParams = { parse: (p: Record<string, string>) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p: { id: string }) => p };

/**
 * /notification-groups and its children (SPEC §2 route table). Create, edit and show are 756 px
 * drawers over the list, so they are children of the list route and keep its URL state.
 */
export function notificationGroupRoutes<P extends AnyRoute>(parent: P) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/notification-groups',
    validateSearch: groupsSearchSchema,
    component: lazyRouteComponent(() => import('../features/notification-groups/groups-page'), 'GroupsPage'),
  });
  const create = createRoute({
    getParentRoute: () => list,
    path: 'create',
    component: lazyRouteComponent(() => import('../features/notification-groups/group-form-drawer'), 'CreateGroupRoute'),
  });
  const edit = createRoute({
    getParentRoute: () => list,
    path: 'edit/$id',
    params: idParams,
    component: lazyRouteComponent(() => import('../features/notification-groups/group-form-drawer'), 'EditGroupRoute'),
  });
  const show = createRoute({
    getParentRoute: () => list,
    path: 'show/$id',
    params: idParams,
    component: lazyRouteComponent(() => import('../features/notification-groups/group-view-drawer'), 'ShowGroupRoute'),
  });
  return [list.addChildren([create, edit, show])] as const;
}
