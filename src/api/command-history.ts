import { queryOptions } from '@tanstack/react-query';
import type { CommandHistoryEntry } from '../../server/contract/command-history';
import type { ListQuery, ListResult } from '../../server/contract/common';
import { api as defaultApi, apiUrl, type Api } from './client';
import { queryKeys } from './query-keys';

export const listCommandHistory = (api: Api, q: ListQuery) => api.post<ListResult<CommandHistoryEntry>>('command-history/all', q);

export const commandHistoryQueryOptions = (q: ListQuery) =>
  queryOptions({ queryKey: queryKeys.commandHistory.list(q), queryFn: () => listCommandHistory(defaultApi, q) });

/** The JSON Lines export of a window (`GET /api/command-history/export`), as a link to download. */
export const historyExportUrl = (q: { from: string; to: string; serverId?: string }) => apiUrl('command-history/export', { from: q.from, to: q.to, serverId: q.serverId });
