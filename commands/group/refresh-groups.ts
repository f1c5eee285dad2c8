import { queryKeys } from '../../src/api/query-keys';
import { defineListRefresh } from '../define-list-refresh';

export const refreshGroups = defineListRefresh({
  id: 'group.refresh',
  title: 'Refresh notification groups',
  category: 'Notification Groups',
  description: 'Fetch the notification groups list again.',
  queryKey: queryKeys.notificationGroups.all,
});
