import { queryKeys } from '../../src/api/query-keys';
import { defineListRefresh } from '../define-list-refresh';

export const refreshUsers = defineListRefresh({
  id: 'user.refresh',
  title: 'Refresh users',
  category: 'Users',
  description: 'Fetch the users list again.',
  queryKey: [...queryKeys.users.all, 'list'],
  permission: 'users.read',
});
