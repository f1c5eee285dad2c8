import type { AnyRoute } from '@tanstack/react-router';
import { titleRoute } from './title-route';

/** /pinned-widgets and its children (SPEC §2 route table). */
export function pinnedWidgetRoutes<P extends AnyRoute>(parent: P) {
  return [
    titleRoute(parent, '/pinned-widgets', 'Pinned Widgets'),
    titleRoute(parent, '/pinned-widgets/create', 'Add New Widget'),
    titleRoute(parent, '/pinned-widgets/edit/$id', 'Edit Widget'),
    titleRoute(parent, '/pinned-widgets/show/$id', 'Widget'),
  ] as const;
}
