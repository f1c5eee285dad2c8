import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { can } from '../../server/contract/permissions';
import { publicStatusQueryOptions, statusPageQueryOptions, statusPagesListQueryOptions } from '../api/status-pages';
import { statusPagesListQuery, statusPagesSearchSchema } from '../features/status-pages/status-pages-query';
import type { AppLayoutRoute } from './app-layout-route';
import { rootRoute } from './root';
import { warm } from './warm';

const idParams = { parse: (p: Record<string, string>) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p: { id: string }) => p };

/** /status-pages, with /status-pages/create and /status-pages/edit/$id as drawers over the list (issue 16 §3). */
export function statusPageRoutes(parent: AppLayoutRoute) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/status-pages',
    // The list's search and page are URL state (issue 13): the loader warms the query the screen reads for them.
    validateSearch: statusPagesSearchSchema,
    loaderDeps: ({ search }) => search,
    loader: ({ context: { queryClient }, deps }) => warm(queryClient.ensureQueryData(statusPagesListQueryOptions(statusPagesListQuery(deps)))),
    component: lazyRouteComponent(() => import('../features/status-pages/status-pages-page'), 'StatusPagesPage'),
  });
  const create = createRoute({
    getParentRoute: () => list,
    path: 'create',
    component: lazyRouteComponent(() => import('../features/status-pages/status-page-drawer'), 'CreateStatusPageRoute'),
  });
  const edit = createRoute({
    getParentRoute: () => list,
    path: 'edit/$id',
    params: idParams,
    // Only for those who may edit: the drawer sends anyone else back without asking (status.edit's permission).
    loader: ({ context: { queryClient, user }, params }) => {
      if (can(user.role, 'status.write')) warm(queryClient.ensureQueryData(statusPageQueryOptions(params.id)));
    },
    component: lazyRouteComponent(() => import('../features/status-pages/status-page-drawer'), 'EditStatusPageRoute'),
  });
  return [list.addChildren([create, edit])] as const;
}

/**
 * /status/$slug: the public status page. Outside both the signed-in layout and the public layout
 * (which sends signed-in people to the dashboard): anyone sees it, signed in or not.
 */
export const publicStatusRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/status/$slug',
  loader: ({ context: { queryClient }, params }) => warm(queryClient.ensureQueryData(publicStatusQueryOptions(params.slug))),
  component: lazyRouteComponent(() => import('../features/public-status/public-status-page'), 'PublicStatusPage'),
});
