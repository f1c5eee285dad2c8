import { queryOptions } from '@tanstack/react-query';
import type { Signin, Whoami } from '../../server/contract/auth';
import type { OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

export const signin = (api: Api, body: Signin) => api.post<OneResult<Whoami>>('auth/signin', body);
export const signout = (api: Api) => api.post<OneResult<boolean>>('auth/signout');
export const whoami = (api: Api) => api.get<OneResult<Whoami>>('auth/whoami');

export const whoamiQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.auth.whoami, queryFn: () => whoami(defaultApi), retry: false, staleTime: 60_000 });
