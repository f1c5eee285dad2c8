import { getRouteApi } from '@tanstack/react-router';
import { AlertDrawer } from './alert-drawer';

const route = getRouteApi('/app/notifications/show/$id');

/** /notifications/show/$id: the drawer over the list; closing (or a failed load) returns to the list with its filters. */
export function AlertDrawerRoute() {
  const { id } = route.useParams();
  const navigate = route.useNavigate();
  return <AlertDrawer key={id} alertId={id} onClose={() => void navigate({ to: '/notifications', search: (s) => s })} />;
}
