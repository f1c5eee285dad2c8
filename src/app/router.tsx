import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { appLayoutRoute, appRoutes } from '../routes/app-routes';
import { publicLayoutRoute, publicRoutes } from '../routes/public-routes';
import { rootRoute } from '../routes/root';
import { publicStatusRoute } from '../routes/status-page-routes';

export function createAppRouter(queryClient: QueryClient) {
  const tree = rootRoute.addChildren([publicLayoutRoute.addChildren(publicRoutes), appLayoutRoute.addChildren(appRoutes), publicStatusRoute]);
  return createRouter({ routeTree: tree, context: { queryClient }, defaultPreload: 'intent', defaultPendingMs: 150, scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
