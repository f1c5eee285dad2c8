import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { SignedOutHost } from '../app/signed-out-host';
import { currentUser, rootRoute } from './root';

/** Public pages: a signed-in user opening one is sent to the dashboard (SPEC §2). */
export const publicLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'public',
  beforeLoad: async ({ context }) => {
    if (await currentUser(context.queryClient)) throw redirect({ to: '/' });
  },
  // The command gate without a user: the sign-in form runs session.signin through it.
  component: SignedOutHost,
});

export const publicRoutes = [
  createRoute({ getParentRoute: () => publicLayoutRoute, path: '/login', component: lazyRouteComponent(() => import('../features/auth/login-page'), 'LoginPage') }),
  createRoute({ getParentRoute: () => publicLayoutRoute, path: '/logout', component: lazyRouteComponent(() => import('../features/auth/message-pages'), 'LogoutPage') }),
  createRoute({
    getParentRoute: () => publicLayoutRoute,
    path: '/session-expired',
    component: lazyRouteComponent(() => import('../features/auth/message-pages'), 'SessionExpiredPage'),
  }),
];
