import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { can } from '../../server/contract/permissions';
import { checkQueryOptions, checksListQueryOptions } from '../api/checks';
import { checksListQuery, checksSearchSchema } from '../features/checks/checks-search';
import type { AppLayoutRoute } from './app-layout-route';
import { warm } from './warm';

const idParams = { parse: (p: Record<string, string>) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p: { id: string }) => p };

/** The detail's chart range is URL state (like paging): a link to a check can say which range. */
const checkDetailSearchSchema = z.object({ span: z.optional(z.catch(z.enum(['1h', '6h', '24h', '7d', '30d', '90d']), '24h')) });

/**
 * /checks, /checks/create, /checks/edit/$id (drawers over the list, as the servers' are) and
 * /checks/show/$id, the detail (issue 16).
 */
export function checkRoutes(parent: AppLayoutRoute) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/checks',
    validateSearch: checksSearchSchema,
    loaderDeps: ({ search }) => search,
    loader: ({ context: { queryClient }, deps }) => warm(queryClient.ensureQueryData(checksListQueryOptions(checksListQuery(deps)))),
    component: lazyRouteComponent(() => import('../features/checks/checks-page'), 'ChecksPage'),
  });
  const create = createRoute({
    getParentRoute: () => list,
    path: 'create',
    component: lazyRouteComponent(() => import('../features/checks/check-form-drawer'), 'CreateCheckRoute'),
  });
  const edit = createRoute({
    getParentRoute: () => list,
    path: 'edit/$id',
    params: idParams,
    // Only for those who may edit: the drawer sends anyone else back without asking (check.edit's permission).
    loader: ({ context: { queryClient, user }, params }) => {
      if (can(user.role, 'checks.write')) warm(queryClient.ensureQueryData(checkQueryOptions(params.id)));
    },
    component: lazyRouteComponent(() => import('../features/checks/check-form-drawer'), 'EditCheckRoute'),
  });
  const show = createRoute({
    getParentRoute: () => parent,
    path: '/checks/show/$id',
    params: idParams,
    validateSearch: checkDetailSearchSchema,
    loader: ({ context: { queryClient }, params }) => warm(queryClient.ensureQueryData(checkQueryOptions(params.id))),
    component: lazyRouteComponent(() => import('../features/checks/check-detail-page'), 'CheckDetailPage'),
  });
  return [list.addChildren([create, edit]), show] as const;
}
