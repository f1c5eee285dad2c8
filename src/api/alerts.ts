import { queryOptions } from '@tanstack/react-query';
import type { AckAlert, UnackAlert, UpdateAlert } from '../../server/contract/alerts';
import type { ListQuery } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** SPEC §7 Alerts: list (filters serverId, status, hostname contains, createdAt between, search), get, update with a note, delete. */
export const listAlerts = (api: Api, q: ListQuery) => call(api, 'alerts.list', { body: q });
export const getAlert = (api: Api, alertId: string) => call(api, 'alerts.get', { params: { id: alertId } });
export const updateAlert = (api: Api, alertId: string, body: UpdateAlert) => call(api, 'alerts.update', { params: { id: alertId }, body });
/** Issue 14: acknowledge ("I'm on it", optionally for a while) and release; the status stays. */
export const ackAlert = (api: Api, alertId: string, body: AckAlert) => call(api, 'alerts.ack', { params: { id: alertId }, body });
export const unackAlert = (api: Api, alertId: string, body: UnackAlert) => call(api, 'alerts.unack', { params: { id: alertId }, body });
export const deleteAlert = (api: Api, alertId: string) => call(api, 'alerts.remove', { params: { id: alertId } });

export const alertsListQueryOptions = (q: ListQuery) =>
  queryOptions({ queryKey: queryKeys.alerts.list(q), queryFn: () => listAlerts(defaultApi, q) });
export const alertQueryOptions = (alertId: string) =>
  queryOptions({ queryKey: queryKeys.alerts.one(alertId), queryFn: () => getAlert(defaultApi, alertId), retry: false });
