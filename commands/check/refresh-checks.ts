import { queryKeys } from '../../src/api/query-keys';
import { defineListRefresh } from '../define-list-refresh';

export const refreshChecks = defineListRefresh({
  id: 'check.refresh',
  title: 'Refresh checks',
  category: 'Checks',
  description: 'Fetch the latest results of the checks list.',
  queryKey: [...queryKeys.checks.all, 'list'],
});
