import { queryKeys } from '../../src/api/query-keys';
import { defineListRefresh } from '../define-list-refresh';

export const refreshSchedulesCommand = defineListRefresh({
  id: 'schedule.refresh',
  title: 'Refresh on-call schedules',
  category: 'On call',
  description: 'Fetch the schedules, who is on call and the final schedules shown again.',
  queryKey: queryKeys.oncall.all,
});
