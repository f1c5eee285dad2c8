import { queryOptions } from '@tanstack/react-query';
import type { MonitoringAlertGroups, MonitoringHealth } from '../../server/contract/ops';
import type { OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

/** The groups "Monitoring backend unreachable" goes to now (`effective`), and whether an admin chose them. */
export type MonitoringAlertGroupsAnswer = MonitoringAlertGroups & { effective: { _id: string; name: string }[] };

/** GET /api/monitoring/health: fresh figures or blind, and why (issue 12). */
export const getMonitoringHealth = (api: Api) => api.get<OneResult<MonitoringHealth>>('monitoring/health');
export const getMonitoringAlertGroups = (api: Api) => api.get<OneResult<MonitoringAlertGroupsAnswer>>('settings/monitoring-alert-groups');
/** `groupIds: null` goes back to the default: every group with email on. */
export const setMonitoringAlertGroups = (api: Api, groupIds: string[] | null) =>
  api.patch<OneResult<MonitoringAlertGroupsAnswer>>('settings/monitoring-alert-groups', { groupIds });

export const monitoringHealthQueryOptions = () => queryOptions({ queryKey: queryKeys.monitoringHealth, queryFn: () => getMonitoringHealth(defaultApi) });
export const monitoringAlertGroupsQueryOptions = () => queryOptions({ queryKey: queryKeys.monitoringAlertGroups, queryFn: () => getMonitoringAlertGroups(defaultApi) });
