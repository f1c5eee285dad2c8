import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { whoamiQueryOptions } from '../api/auth';
import { NotFoundPage } from '../features/shell/not-found-page';

export interface RouterContext {
  queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
});

/** Whether the browser holds a live session: whoami answers, or it does not (401). */
export async function currentUser(queryClient: QueryClient) {
  try {
    return (await queryClient.ensureQueryData(whoamiQueryOptions())).result;
  } catch {
    return null;
  }
}
