import { queryOptions } from '@tanstack/react-query';
import type { CommandHistoryEntry, CreateCommandHistory } from '../../server/contract/command-history';
import type { ListQuery, ListResult, OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

export const listCommandHistory = (api: Api, q: ListQuery) => api.post<ListResult<CommandHistoryEntry>>('command-history/all', q);
export const recordCommand = (api: Api, body: CreateCommandHistory) => api.post<OneResult<CommandHistoryEntry>>('command-history', body);

export const commandHistoryQueryOptions = (q: ListQuery) =>
  queryOptions({ queryKey: queryKeys.commandHistory.list(q), queryFn: () => listCommandHistory(defaultApi, q) });
