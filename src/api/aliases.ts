import { queryOptions } from '@tanstack/react-query';
import type { Alias, PutAlias } from '../../server/contract/aliases';
import type { OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

/** Issue 13: the signed-in person's command aliases. */
export const listAliases = (api: Api) => api.get<{ result: Alias[] }>('aliases');
export const putAlias = (api: Api, name: string, body: PutAlias) => api.put<OneResult<Alias>>(`aliases/${encodeURIComponent(name)}`, body);
export const deleteAlias = (api: Api, name: string) => api.delete<OneResult<Alias>>(`aliases/${encodeURIComponent(name)}`);

export const aliasesQueryOptions = () => queryOptions({ queryKey: queryKeys.aliases.all, queryFn: () => listAliases(defaultApi), staleTime: 60_000 });
