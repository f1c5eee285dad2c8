import { queryKeys } from '../../src/api/query-keys';
import { defineListRefresh } from '../define-list-refresh';

export const refreshAlerts = defineListRefresh({
  id: 'alerts.refresh',
  title: 'Refresh alerts',
  category: 'Alerts',
  description: 'Fetch the latest alerts for the Notifications lists.',
  // Only the lists: an open alert drawer keeps what the person is reading.
  queryKey: [...queryKeys.alerts.all, 'list'],
});
