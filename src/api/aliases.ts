import { queryOptions } from '@tanstack/react-query';
import type { PutAlias } from '../../server/contract/aliases';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** Issue 13: the signed-in person's command aliases. */
export const listAliases = (api: Api) => call(api, 'aliases.list');
export const putAlias = (api: Api, name: string, body: PutAlias) => call(api, 'aliases.put', { params: { name }, body });
export const deleteAlias = (api: Api, name: string) => call(api, 'aliases.remove', { params: { name } });

export const aliasesQueryOptions = () => queryOptions({ queryKey: queryKeys.aliases.all, queryFn: () => listAliases(defaultApi), staleTime: 60_000 });
