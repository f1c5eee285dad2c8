import { queryOptions } from '@tanstack/react-query';
import type { UpdateAlertConfig } from '../../server/contract/alerts';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** These calls take no body, yet the web client has always sent `{}` (and History shows the body it got): kept so. */
const EMPTY_BODY = { body: {} } as {};

/** SPEC §7 alert-config: get filtered by serverId (page size 100), create defaults, update with the full config, reset. */
export const getAlertConfigs = (api: Api, serverId: string) => call(api, 'alertConfig.list', { body: { pageSize: 100, filter: { serverId: { eq: serverId } } } });
export const createDefaultAlertRules = (api: Api, serverId: string) => call(api, 'alertConfig.createDefaults', { params: { serverId }, ...EMPTY_BODY });
export const updateAlertConfig = (api: Api, configId: string, body: UpdateAlertConfig) => call(api, 'alertConfig.update', { params: { id: configId }, body });
export const resetAlertRules = (api: Api, configId: string) => call(api, 'alertConfig.reset', { params: { id: configId }, ...EMPTY_BODY });

export const alertConfigQueryOptions = (serverId: string) =>
  queryOptions({ queryKey: queryKeys.alertConfig.server(serverId), queryFn: () => getAlertConfigs(defaultApi, serverId) });
