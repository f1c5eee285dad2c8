import { queryOptions } from '@tanstack/react-query';
import type { HistoryExportQuery } from '../../server/contract/command-history';
import type { ListQuery } from '../../server/contract/common';
import { api as defaultApi, apiUrl, type Api } from './client';
import { call, endpointPath } from './call';
import { queryKeys } from './query-keys';

export const listCommandHistory = (api: Api, q: ListQuery) => call(api, 'commandHistory.list', { body: q });
export const getHistoryEntry = (api: Api, id: string) => call(api, 'commandHistory.get', { params: { id } });

export const commandHistoryQueryOptions = (q: ListQuery) =>
  queryOptions({ queryKey: queryKeys.commandHistory.list(q), queryFn: () => listCommandHistory(defaultApi, q) });

/** The JSON Lines export of a window (`GET /api/command-history/export`), as a link to download. */
export const historyExportUrl = (q: { from: string; to: string; serverId?: string }) =>
  apiUrl(endpointPath('commandHistory.export'), { from: q.from, to: q.to, serverId: q.serverId } satisfies HistoryExportQuery);
