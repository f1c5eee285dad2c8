import { queryOptions } from '@tanstack/react-query';
import type { AlertsSummary, CpuUsageRow, DiskUsageRow, DownServerRow, MemoryUsageRow, NodesSummary, Rows, ServiceDownRow } from '../../server/contract/analytics';
import type { OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

/** SPEC §7 Analytics: the home dashboard's figures (`GET /api/analytics/...`). */
export const getTopCpu = (api: Api, percentage: number) => api.get<Rows<CpuUsageRow>>('analytics/top-cpu-usage-servers', { query: { percentage } });
export const getTopMemory = (api: Api, percentage: number) => api.get<Rows<MemoryUsageRow>>('analytics/top-memory-usage-servers', { query: { percentage } });
export const getTopDisk = (api: Api, percentage: number) => api.get<Rows<DiskUsageRow>>('analytics/top-disk-usage-servers', { query: { percentage } });
export const getNodesSummary = (api: Api) => api.get<OneResult<NodesSummary>>('analytics/nodes-summary');
export const getAlertsSummary = (api: Api) => api.get<OneResult<AlertsSummary>>('analytics/alerts-summary');
export const getServicesDown = (api: Api) => api.get<Rows<ServiceDownRow>>('analytics/get-services-down');
export const getDownServers = (api: Api) => api.get<Rows<DownServerRow>>('analytics/get-down-servers');

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
