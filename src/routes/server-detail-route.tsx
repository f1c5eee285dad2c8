import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { monitoringConfigQueryOptions, serverQueryOptions } from '../api/servers';
import { serverDetailSearchSchema } from '../lib/server-view';
import type { AppLayoutRoute } from './app-layout-route';
import { warm } from './warm';

/**
 * /servers/show/$id: the server detail (SPEC §2 Server detail). Its whole view state (tab, time
 * range, time zone, refresh, services filters) lives in the search params.
 */
export function serverDetailRoute(parent: AppLayoutRoute) {
  return createRoute({
    getParentRoute: () => parent,
    path: '/servers/show/$id',
    params: { parse: (p) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p) => p },
    validateSearch: serverDetailSearchSchema,
    // The header and the choice between built-in charts and Grafana frames need both.
    loader: ({ context: { queryClient }, params }) => warm(queryClient.ensureQueryData(serverQueryOptions(params.id)), queryClient.ensureQueryData(monitoringConfigQueryOptions())),
    component: lazyRouteComponent(() => import('./server-detail-composed'), 'ServerDetailWithTabs'),
  });
}
