import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { whoamiQueryOptions } from '../api/auth';
import { ApiError } from '../api/client';
import { readStoredUser } from '../lib/stored-user';
import { NotFoundPage } from '../features/shell/not-found-page';

export interface RouterContext {
  queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
});

/**
 * Whether the browser holds a live session: whoami answers, or it says 401. An API that cannot be
 * reached (a network failure, a proxy's 502–504, a 503 while the database is away) says nothing
 * about the session: the person signed in last in this browser stays signed in, and the layout
 * says the connection is lost (issue 24 §3). Only a real 401 signs out (SPEC §8).
 */
export async function currentUser(queryClient: QueryClient) {
  try {
    return (await queryClient.ensureQueryData(whoamiQueryOptions())).result;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    if (error instanceof ApiError && error.status < 500) return null;
    return readStoredUser();
  }
}
