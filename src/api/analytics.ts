import { queryOptions } from '@tanstack/react-query';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** SPEC §7 Analytics: the home dashboard's figures (`GET /api/analytics/...`). */
export const getTopCpu = (api: Api, percentage: number) => call(api, 'analytics.topCpu', { query: { percentage: String(percentage) } });
export const getTopMemory = (api: Api, percentage: number) => call(api, 'analytics.topMemory', { query: { percentage: String(percentage) } });
export const getTopDisk = (api: Api, percentage: number) => call(api, 'analytics.topDisk', { query: { percentage: String(percentage) } });
export const getNodesSummary = (api: Api) => call(api, 'analytics.nodesSummary');
export const getAlertsSummary = (api: Api) => call(api, 'analytics.alertsSummary');
export const getServicesDown = (api: Api) => call(api, 'analytics.servicesDown');
export const getDownServers = (api: Api) => call(api, 'analytics.downServers');

// The card names are the dashboard's (src/lib/dashboard-view.ts), so `dashboard.refresh --card cpu`
// invalidates exactly queryKeys.analytics.card('cpu').
export const topCpuQueryOptions = (percentage: number) =>
  queryOptions({ queryKey: queryKeys.analytics.card('cpu', percentage), queryFn: () => getTopCpu(defaultApi, percentage) });
export const topMemoryQueryOptions = (percentage: number) =>
  queryOptions({ queryKey: queryKeys.analytics.card('memory', percentage), queryFn: () => getTopMemory(defaultApi, percentage) });
export const topDiskQueryOptions = (percentage: number) =>
  queryOptions({ queryKey: queryKeys.analytics.card('disk', percentage), queryFn: () => getTopDisk(defaultApi, percentage) });
export const nodesSummaryQueryOptions = () => queryOptions({ queryKey: queryKeys.analytics.card('instances'), queryFn: () => getNodesSummary(defaultApi) });
export const alertsSummaryQueryOptions = () => queryOptions({ queryKey: queryKeys.analytics.card('alerts'), queryFn: () => getAlertsSummary(defaultApi) });
export const servicesDownQueryOptions = () => queryOptions({ queryKey: queryKeys.analytics.card('services'), queryFn: () => getServicesDown(defaultApi) });
export const downServersQueryOptions = () => queryOptions({ queryKey: queryKeys.analytics.card('down-servers'), queryFn: () => getDownServers(defaultApi) });
