import { queryKeys } from '../../src/api/query-keys';
import { defineListRefresh } from '../define-list-refresh';

export const refreshStatusPages = defineListRefresh({
  id: 'status.refresh',
  title: 'Refresh status pages',
  category: 'Status Pages',
  description: 'Fetch the status pages list again.',
  queryKey: [...queryKeys.statusPages.all, 'list'],
});
