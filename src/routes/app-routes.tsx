import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import * as z from 'zod/mini';

import { currentUser, rootRoute } from './root';
import { usersSearchSchema } from '../features/users/users-search';
import { serverRoutes } from './server-routes';
import { serverDetailRoute } from './server-detail-route';

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

const titlePage = (title: string) => {
  const Component = lazyRouteComponent(() => import('../features/shell/title-page'), 'TitlePage');
  return () => <Component title={title} />;
};
const page = (path: string, title: string) => createRoute({ getParentRoute: () => appLayoutRoute, path, component: titlePage(title) });

const usersRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: '/users',
  validateSearch: usersSearchSchema,
  component: lazyRouteComponent(() => import('../features/users/users-page'), 'UsersPage'),
});
const userShowRoute = createRoute({
  getParentRoute: () => usersRoute,
  path: 'show/$id',
  params: { parse: (p) => ({ id: z.parse(z.string().check(z.minLength(1)), p.id) }), stringify: (p) => p },
  component: lazyRouteComponent(() => import('../features/users/user-drawer'), 'UserDrawerRoute'),
});
const userCreateRoute = createRoute({
  getParentRoute: () => usersRoute,
  path: 'create',
  component: lazyRouteComponent(() => import('../features/users/create-user-modal'), 'CreateUserRoute'),
});

/** SPEC §2 route table. Screens later issues build show their title until then. */
export const appRoutes = [
  page('/', 'Dashboard'),
  ...serverRoutes(appLayoutRoute),
  serverDetailRoute(appLayoutRoute),
  page('/notifications', 'Notifications'),
  page('/notifications/create', 'Create Notification'),
  page('/notifications/edit/$id', 'Edit Notification'),
  page('/notifications/show/$id', 'Notification'),
  page('/notification-groups', 'Notification Groups'),
  page('/notification-groups/create', 'Create Notification Group'),
  page('/notification-groups/edit/$id', 'Update Notification Group'),
  page('/notification-groups/show/$id', 'Notification Group'),
  page('/pinned-widgets', 'Pinned Widgets'),
  page('/pinned-widgets/create', 'Add New Widget'),
  page('/pinned-widgets/edit/$id', 'Edit Widget'),
  page('/pinned-widgets/show/$id', 'Widget'),
  usersRoute.addChildren([userShowRoute, userCreateRoute]),
];
