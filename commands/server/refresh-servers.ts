import { queryKeys } from '../../src/api/query-keys';
import { defineListRefresh } from '../define-list-refresh';

export const refreshServers = defineListRefresh({
  id: 'server.refresh',
  title: 'Refresh servers list',
  category: 'Servers',
  description: 'Fetch the latest figures of the servers list.',
  // Only the lists: a detail open elsewhere keeps its own refresh rhythm.
  queryKey: [...queryKeys.servers.all, 'list'],
});
