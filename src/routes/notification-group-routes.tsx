import type { AnyRoute } from '@tanstack/react-router';
import { titleRoute } from './title-route';

/** /notification-groups and its children (SPEC §2 route table): the list and its 756 px drawers. */
export function notificationGroupRoutes<P extends AnyRoute>(parent: P) {
  return [
    titleRoute(parent, '/notification-groups', 'Notification Groups'),
    titleRoute(parent, '/notification-groups/create', 'Create Notification Group'),
    titleRoute(parent, '/notification-groups/edit/$id', 'Update Notification Group'),
    titleRoute(parent, '/notification-groups/show/$id', 'Notification Group'),
  ] as const;
}
