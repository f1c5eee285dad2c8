import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { rootRoute } from './root';

const idParams = { parse: (p: Record<string, string>) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p: { id: string }) => p };

/** /status-pages, with /status-pages/create and /status-pages/edit/$id as drawers over the list (issue 16 §3). */
export function statusPageRoutes<P extends AnyRoute>(parent: P) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/status-pages',
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
  component: lazyRouteComponent(() => import('../features/public-status/public-status-page'), 'PublicStatusPage'),
});
