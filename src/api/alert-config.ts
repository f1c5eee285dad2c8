import { queryOptions } from '@tanstack/react-query';
import type { AlertConfig, UpdateAlertConfig } from '../../server/contract/alerts';
import type { ListResult, OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

const id = (s: string) => encodeURIComponent(s);

/** SPEC §7 alert-config: get filtered by serverId (page size 100), create defaults, update with the full config, reset. */
export const getAlertConfigs = (api: Api, serverId: string) =>
  api.post<ListResult<AlertConfig>>('alert-config/get-alert-config/all', { pageSize: 100, filter: { serverId: { eq: serverId } } });
export const createDefaultAlertRules = (api: Api, serverId: string) =>
  api.post<OneResult<AlertConfig>>(`alert-config/create-default-alert-rules/${id(serverId)}`, {});
export const updateAlertConfig = (api: Api, configId: string, body: UpdateAlertConfig) =>
  api.patch<OneResult<AlertConfig>>(`alert-config/update-alert-config/${id(configId)}`, body);
export const resetAlertRules = (api: Api, configId: string) => api.patch<OneResult<AlertConfig>>(`alert-config/reset-alert-rules/${id(configId)}`, {});

export const alertConfigQueryOptions = (serverId: string) =>
  queryOptions({ queryKey: queryKeys.alertConfig.server(serverId), queryFn: () => getAlertConfigs(defaultApi, serverId) });
