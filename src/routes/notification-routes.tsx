import type { AnyRoute } from '@tanstack/react-router';
import { titleRoute } from './title-route';

/** /notifications and its children (SPEC §2 route table): the alerts list and the alert detail drawer. */
export function notificationRoutes<P extends AnyRoute>(parent: P) {
  return [
    titleRoute(parent, '/notifications', 'Notifications'),
    titleRoute(parent, '/notifications/create', 'Create Notification'),
    titleRoute(parent, '/notifications/edit/$id', 'Edit Notification'),
    titleRoute(parent, '/notifications/show/$id', 'Notification'),
  ] as const;
}
