import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { can } from '../../server/contract/permissions';
import { notificationGroupQueryOptions, notificationGroupsListQueryOptions } from '../api/notification-groups';
import { groupsListQuery, groupsSearchSchema } from '../features/notification-groups/groups-search';
import type { AppLayoutRoute } from './app-layout-route';
import { warm } from './warm';

const idParams = { parse: (p: Record<string, string>) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p: { id: string }) => p };

/**
 * /notification-groups and its children (SPEC §2 route table). Create, edit and show are 756 px
 * drawers over the list, so they are children of the list route and keep its URL state.
 */
export function notificationGroupRoutes(parent: AppLayoutRoute) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/notification-groups',
    validateSearch: groupsSearchSchema,
    loaderDeps: ({ search }) => search,
    loader: ({ context: { queryClient }, deps }) => warm(queryClient.ensureQueryData(notificationGroupsListQueryOptions(groupsListQuery(deps)))),
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
    // Only for those who may edit: the drawer sends anyone else back without asking (group.edit's permission).
    loader: ({ context: { queryClient, user }, params }) => {
      if (can(user.role, 'groups.write')) warm(queryClient.ensureQueryData(notificationGroupQueryOptions(params.id)));
    },
    component: lazyRouteComponent(() => import('../features/notification-groups/group-form-drawer'), 'EditGroupRoute'),
  });
  const show = createRoute({
    getParentRoute: () => list,
    path: 'show/$id',
    params: idParams,
    loader: ({ context: { queryClient }, params }) => warm(queryClient.ensureQueryData(notificationGroupQueryOptions(params.id))),
    component: lazyRouteComponent(() => import('../features/notification-groups/group-view-drawer'), 'ShowGroupRoute'),
  });
  return [list.addChildren([create, edit, show])] as const;
}
