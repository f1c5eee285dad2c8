import type { AnyRoute } from '@tanstack/react-router';
import { titleRoute } from './title-route';

/** / : the Dashboard (SPEC §2 Dashboard). */
export function dashboardRoute<P extends AnyRoute>(parent: P) {
  return titleRoute(parent, '/', 'Dashboard');
}
