import { queryOptions } from '@tanstack/react-query';
import type { ListQuery } from '../../server/contract/common';
import type { CreateServer, UpdateServer } from '../../server/contract/servers';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** SPEC §7 Servers. `servers/metrics/all` is the Servers List; `servers/all` feeds selectors. */
export const listServerMetrics = (api: Api, q: ListQuery) => call(api, 'serverMetrics.list', { body: q });
export const listServers = (api: Api, q: ListQuery) => call(api, 'servers.list', { body: q });
export const getServer = (api: Api, serverId: string) => call(api, 'servers.get', { params: { id: serverId } });
export const createServer = (api: Api, body: CreateServer) => call(api, 'servers.create', { body });
export const updateServer = (api: Api, serverId: string, body: UpdateServer) => call(api, 'servers.update', { params: { id: serverId }, body });
export const deleteServer = (api: Api, serverId: string) => call(api, 'servers.remove', { params: { id: serverId } });
export const getServerUsage = (api: Api, serverId: string) => call(api, 'servers.usage', { params: { id: serverId } });
export const getServerUpStatus = (api: Api, serverId: string) => call(api, 'servers.upStatus', { params: { id: serverId } });
export const listServices = (api: Api, q: ListQuery) => call(api, 'services.list', { body: q });
export const getChart = (api: Api, serverId: string, q: { panel: number; from: number; to: number; step?: number }) => call(api, 'servers.chart', { params: { id: serverId }, query: q });
export const getServerForecasts = (api: Api, serverId: string) => call(api, 'servers.forecast', { params: { id: serverId } });
export const getMonitoringConfig = (api: Api) => call(api, 'monitoring.config');

/** SPEC §7 "Server selector": active, agent-configured servers, hostname contains, page size 100. */
export const serverSelectorQuery = (text: string): ListQuery => ({
  pageNumber: 1,
  pageSize: 100,
  sort: { by: 'hostname', direction: 'asc' },
  filter: { isAgentConfigured: { eq: true }, status: { eq: 'active' }, ...(text ? { hostname: { contains: text } } : {}) },
});

export const serverMetricsListQueryOptions = (q: ListQuery) =>
  queryOptions({ queryKey: queryKeys.servers.list(q), queryFn: () => listServerMetrics(defaultApi, q) });
export const serverQueryOptions = (serverId: string) =>
  queryOptions({ queryKey: queryKeys.servers.one(serverId), queryFn: () => getServer(defaultApi, serverId), retry: false });
export const serverUsageQueryOptions = (serverId: string) =>
  queryOptions({ queryKey: queryKeys.servers.usage(serverId), queryFn: () => getServerUsage(defaultApi, serverId) });
/** SPEC §7: up status has no retry. */
export const serverUpStatusQueryOptions = (serverId: string) =>
  queryOptions({ queryKey: queryKeys.servers.upstatus(serverId), queryFn: () => getServerUpStatus(defaultApi, serverId), retry: false });
export const serverSelectorQueryOptions = (text: string) =>
  queryOptions({ queryKey: queryKeys.servers.selector(text), queryFn: () => listServers(defaultApi, serverSelectorQuery(text)) });
export const serverChoicesQueryOptions = (q: ListQuery) => queryOptions({ queryKey: queryKeys.servers.choices(q), queryFn: () => listServers(defaultApi, q) });
export const servicesQueryOptions = (q: ListQuery) => queryOptions({ queryKey: queryKeys.servers.services(q), queryFn: () => listServices(defaultApi, q) });
export const chartQueryOptions = (serverId: string, panel: number, from: number, to: number) =>
  queryOptions({ queryKey: queryKeys.servers.chart(serverId, panel, from, to), queryFn: () => getChart(defaultApi, serverId, { panel, from, to }) });
export const monitoringConfigQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.monitoringConfig, queryFn: () => getMonitoringConfig(defaultApi), staleTime: Infinity });
/** Disk and memory forecasts (issue 16): recomputed every 5 minutes, so read once a minute. */
export const serverForecastsQueryOptions = (serverId: string) =>
  queryOptions({ queryKey: queryKeys.servers.forecast(serverId), queryFn: () => getServerForecasts(defaultApi, serverId), refetchInterval: 60_000 });
