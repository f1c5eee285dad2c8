import { queryOptions } from '@tanstack/react-query';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** GET /api/alerting/reach: whether a firing alert reaches anyone, and what to fix first. */
export const getAlertReach = (api: Api) => call(api, 'reach.get');
export const getDefaultGroup = (api: Api) => call(api, 'reach.defaultGroup');
/** Makes a group the default (null: none); rules that notify nobody get it too. */
export const setDefaultGroup = (api: Api, groupId: string | null) => call(api, 'reach.setDefaultGroup', { body: { groupId } });

export const alertReachQueryOptions = () => queryOptions({ queryKey: queryKeys.alertReach, queryFn: () => getAlertReach(defaultApi), staleTime: 10_000 });
export const defaultGroupQueryOptions = () => queryOptions({ queryKey: [...queryKeys.alertReach, 'default-group'] as const, queryFn: () => getDefaultGroup(defaultApi) });
