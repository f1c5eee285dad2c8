import { queryOptions } from '@tanstack/react-query';
import type { CreateWindow, UpdateWindow } from '../../server/contract/routing';
import type { ListQuery } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** Issue 14 §3 maintenance windows: list, get, create, edit, delete, preview, calendar occurrences. */
export const listWindows = (api: Api, q: ListQuery) => call(api, 'maintenanceWindows.list', { body: q });
export const getWindow = (api: Api, windowId: string) => call(api, 'maintenanceWindows.get', { params: { id: windowId } });
export const createWindow = (api: Api, body: CreateWindow) => call(api, 'maintenanceWindows.create', { body });
export const updateWindow = (api: Api, windowId: string, body: UpdateWindow) => call(api, 'maintenanceWindows.update', { params: { id: windowId }, body });
export const deleteWindow = (api: Api, windowId: string) => call(api, 'maintenanceWindows.remove', { params: { id: windowId } });
export const previewWindow = (api: Api, body: { serverIds?: string[]; matchers?: CreateWindow['matchers'] }) => call(api, 'maintenanceWindows.preview', { body });
export const windowOccurrences = (api: Api, from: Date, to: Date) => call(api, 'maintenanceWindows.occurrences', { query: { from: from.toISOString(), to: to.toISOString() } });

export const windowsListQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.maintenanceWindows.list(), queryFn: () => listWindows(defaultApi, { pageNumber: 1, pageSize: 100, sort: { by: 'startsAt', direction: 'desc' } }) });
export const occurrencesQueryOptions = (from: Date, to: Date) =>
  queryOptions({ queryKey: queryKeys.maintenanceWindows.occurrences(from.toISOString(), to.toISOString()), queryFn: () => windowOccurrences(defaultApi, from, to) });
export const windowQueryOptions = (windowId: string) =>
  queryOptions({ queryKey: queryKeys.maintenanceWindows.one(windowId), queryFn: () => getWindow(defaultApi, windowId), retry: false });
export const windowPreviewQueryOptions = (body: Parameters<typeof previewWindow>[1]) =>
  queryOptions({ queryKey: queryKeys.matchPreview.window(body), queryFn: () => previewWindow(defaultApi, body), retry: false });
