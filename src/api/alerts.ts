import { queryOptions } from '@tanstack/react-query';
import type { AckAlert, AlertDetail, Alert, UnackAlert, UpdateAlert } from '../../server/contract/alerts';
import type { ListQuery, ListResult, OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

const id = (s: string) => encodeURIComponent(s);

/** SPEC §7 Alerts: list (filters serverId, status, hostname contains, createdAt between, search), get, update with a note, delete. */
export const listAlerts = (api: Api, q: ListQuery) => api.post<ListResult<Alert>>('alerts/all', q);
export const getAlert = (api: Api, alertId: string) => api.get<OneResult<AlertDetail>>(`alerts/${id(alertId)}`);
export const updateAlert = (api: Api, alertId: string, body: UpdateAlert) => api.patch<OneResult<AlertDetail>>(`alerts/${id(alertId)}`, body);
/** Issue 14: acknowledge ("I'm on it", optionally for a while) and release; the status stays. */
export const ackAlert = (api: Api, alertId: string, body: AckAlert) => api.post<OneResult<AlertDetail>>(`alerts/${id(alertId)}/ack`, body);
export const unackAlert = (api: Api, alertId: string, body: UnackAlert) => api.post<OneResult<AlertDetail>>(`alerts/${id(alertId)}/unack`, body);
export const deleteAlert = (api: Api, alertId: string) => api.delete<OneResult<{ _id: string }>>(`alerts/${id(alertId)}`);

export const alertsListQueryOptions = (q: ListQuery) =>
  queryOptions({ queryKey: queryKeys.alerts.list(q), queryFn: () => listAlerts(defaultApi, q) });
export const alertQueryOptions = (alertId: string) =>
  queryOptions({ queryKey: queryKeys.alerts.one(alertId), queryFn: () => getAlert(defaultApi, alertId), retry: false });
