import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { serverDetailSearchSchema } from '../lib/server-view';

/**
 * /servers/show/$id: the server detail (SPEC §2 Server detail). Its whole view state (tab, time
 * range, time zone, refresh, services filters) lives in the search params.
 */
export function serverDetailRoute<P extends AnyRoute>(parent: P) {
  return createRoute({
    getParentRoute: () => parent,
    path: '/servers/show/$id',
    params: { parse: (p) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p) => p },
    validateSearch: serverDetailSearchSchema,
    component: lazyRouteComponent(() => import('./server-detail-composed'), 'ServerDetailWithTabs'),
  });
}
