import { queryOptions } from '@tanstack/react-query';
import type { OneResult } from '../../server/contract/common';
import type { AlertReach, DefaultGroupAnswer } from '../../server/contract/reach';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

/** GET /api/alerting/reach: whether a firing alert reaches anyone, and what to fix first. */
export const getAlertReach = (api: Api) => api.get<OneResult<AlertReach>>('alerting/reach');
export const getDefaultGroup = (api: Api) => api.get<OneResult<DefaultGroupAnswer>>('settings/default-notification-group');
/** Makes a group the default (null: none); rules that notify nobody get it too. */
export const setDefaultGroup = (api: Api, groupId: string | null) => api.patch<OneResult<DefaultGroupAnswer>>('settings/default-notification-group', { groupId });

export const alertReachQueryOptions = () => queryOptions({ queryKey: queryKeys.alertReach, queryFn: () => getAlertReach(defaultApi), staleTime: 10_000 });
export const defaultGroupQueryOptions = () => queryOptions({ queryKey: [...queryKeys.alertReach, 'default-group'] as const, queryFn: () => getDefaultGroup(defaultApi) });
