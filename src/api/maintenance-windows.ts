import { queryOptions } from '@tanstack/react-query';
import type { CreateWindow, MaintenanceWindow, MatchPreview, UpdateWindow, WindowOccurrence } from '../../server/contract/routing';
import type { ListQuery, ListResult, OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

const id = (s: string) => encodeURIComponent(s);

/** Issue 14 §3 maintenance windows: list, get, create, edit, delete, preview, calendar occurrences. */
export const listWindows = (api: Api, q: ListQuery) => api.post<ListResult<MaintenanceWindow>>('maintenance-windows/all', q);
export const getWindow = (api: Api, windowId: string) => api.get<OneResult<MaintenanceWindow>>(`maintenance-windows/${id(windowId)}`);
export const createWindow = (api: Api, body: CreateWindow) => api.post<OneResult<MaintenanceWindow>>('maintenance-windows', body);
export const updateWindow = (api: Api, windowId: string, body: UpdateWindow) => api.patch<OneResult<MaintenanceWindow>>(`maintenance-windows/${id(windowId)}`, body);
export const deleteWindow = (api: Api, windowId: string) => api.delete<OneResult<{ _id: string }>>(`maintenance-windows/${id(windowId)}`);
export const previewWindow = (api: Api, body: { serverIds?: string[]; matchers?: CreateWindow['matchers'] }) => api.post<OneResult<MatchPreview>>('maintenance-windows/preview', body);
export const windowOccurrences = (api: Api, from: Date, to: Date) =>
  api.get<OneResult<WindowOccurrence[]>>(`maintenance-windows/occurrences?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`);

export const windowsListQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.maintenanceWindows.list(), queryFn: () => listWindows(defaultApi, { pageNumber: 1, pageSize: 100, sort: { by: 'startsAt', direction: 'desc' } }) });
export const occurrencesQueryOptions = (from: Date, to: Date) =>
  queryOptions({ queryKey: queryKeys.maintenanceWindows.occurrences(from.toISOString(), to.toISOString()), queryFn: () => windowOccurrences(defaultApi, from, to) });
export const windowQueryOptions = (windowId: string) =>
  queryOptions({ queryKey: queryKeys.maintenanceWindows.one(windowId), queryFn: () => getWindow(defaultApi, windowId), retry: false });
export const windowPreviewQueryOptions = (body: Parameters<typeof previewWindow>[1]) =>
  queryOptions({ queryKey: queryKeys.matchPreview.window(body), queryFn: () => previewWindow(defaultApi, body), retry: false });
