import { queryOptions } from '@tanstack/react-query';
import type { Signin } from '../../server/contract/auth';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

export const signin = (api: Api, body: Signin) => call(api, 'auth.signin', { body });
export const signout = (api: Api) => call(api, 'auth.signout');
export const whoami = (api: Api) => call(api, 'auth.whoami');

export const whoamiQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.auth.whoami, queryFn: () => whoami(defaultApi), retry: false, staleTime: 60_000 });
