import { queryOptions } from '@tanstack/react-query';
import type { CreateToken } from '../../server/contract/tokens';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** Issue 13: this person's API tokens (revoked ones too, newest first). */
export const listTokens = (api: Api) => call(api, 'tokens.list');
/** Answers the token's secret once, in `result.token`. */
export const createToken = (api: Api, body: CreateToken) => call(api, 'tokens.create', { body });
export const revokeToken = (api: Api, id: string) => call(api, 'tokens.revoke', { params: { id } });

export const tokensQueryOptions = () => queryOptions({ queryKey: queryKeys.tokens.all, queryFn: () => listTokens(defaultApi) });
