import { queryOptions } from '@tanstack/react-query';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** The groups "Monitoring backend unreachable" goes to now (`effective`), and whether an admin chose them. */
export type { MonitoringAlertGroupsAnswer } from '../../server/contract/ops';

/** GET /api/monitoring/health: fresh figures or blind, and why (issue 12). */
export const getMonitoringHealth = (api: Api) => call(api, 'monitoring.health');
export const getMonitoringAlertGroups = (api: Api) => call(api, 'monitoring.alertGroups');
/** `groupIds: null` goes back to the default: every group with email on. */
export const setMonitoringAlertGroups = (api: Api, groupIds: string[] | null) => call(api, 'monitoring.setAlertGroups', { body: { groupIds } });

export const monitoringHealthQueryOptions = () => queryOptions({ queryKey: queryKeys.monitoringHealth, queryFn: () => getMonitoringHealth(defaultApi) });
export const monitoringAlertGroupsQueryOptions = () => queryOptions({ queryKey: queryKeys.monitoringAlertGroups, queryFn: () => getMonitoringAlertGroups(defaultApi) });
