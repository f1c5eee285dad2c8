import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { scheduleQueryOptions, schedulesListQueryOptions, whoQueryOptions } from '../api/oncall';
import type { AppLayoutRoute } from './app-layout-route';
import { warm } from './warm';

const idParams = { parse: (p: Record<string, string>) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p: { id: string }) => p };

/** /oncall (the schedules and who is on call in each) and /oncall/$id (one schedule: layers, overrides, the next two weeks), issue 27 §1. */
export function oncallRoutes(parent: AppLayoutRoute) {
  const list = createRoute({
    getParentRoute: () => parent,
    path: '/oncall',
    loader: ({ context: { queryClient } }) => warm(queryClient.ensureQueryData(schedulesListQueryOptions()), queryClient.ensureQueryData(whoQueryOptions())),
    component: lazyRouteComponent(() => import('../features/oncall/schedules-page'), 'SchedulesPage'),
  });
  const show = createRoute({
    getParentRoute: () => parent,
    path: '/oncall/$id',
    params: idParams,
    loader: ({ context: { queryClient }, params }) => warm(queryClient.ensureQueryData(scheduleQueryOptions(params.id))),
    component: lazyRouteComponent(() => import('../features/oncall/schedule-page'), 'SchedulePage'),
  });
  return [list, show] as const;
}
