import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { currentUser, rootRoute } from './root';

/** Everything behind sign-in. An unauthenticated visitor goes to /session-expired (SPEC §2). */
export const appLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context }) => {
    const user = await currentUser(context.queryClient);
    if (!user) throw redirect({ to: '/session-expired' });
    return { user };
  },
  component: lazyRouteComponent(() => import('../app/app-layout'), 'AppLayout'),
});

/** The parent of every signed-in route: its loaders get the QueryClient and the user from its context. */
export type AppLayoutRoute = typeof appLayoutRoute;
