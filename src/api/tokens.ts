import { queryOptions } from '@tanstack/react-query';
import type { ListResult, OneResult } from '../../server/contract/common';
import type { CreatedPersonalToken, CreateToken, PersonalToken } from '../../server/contract/tokens';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

/** Issue 13: this person's API tokens (revoked ones too, newest first). */
export const listTokens = (api: Api) => api.get<ListResult<PersonalToken>>('auth/tokens');
/** Answers the token's secret once, in `result.token`. */
export const createToken = (api: Api, body: CreateToken) => api.post<OneResult<CreatedPersonalToken>>('auth/tokens', body);
export const revokeToken = (api: Api, id: string) => api.delete<OneResult<PersonalToken>>(`auth/tokens/${encodeURIComponent(id)}`);

export const tokensQueryOptions = () => queryOptions({ queryKey: queryKeys.tokens.all, queryFn: () => listTokens(defaultApi) });
