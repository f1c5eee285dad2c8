import { queryOptions } from '@tanstack/react-query';
import type { ListQuery, ListResult, OneResult } from '../../server/contract/common';
import type { CreateUser, UpdateUser, User } from '../../server/contract/users';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

export const listUsers = (api: Api, q: ListQuery) => api.post<ListResult<User>>('users/all', q);
export const getUser = (api: Api, id: string) => api.get<OneResult<User>>(`users/${encodeURIComponent(id)}`);
export const getManyUsers = (api: Api, ids: string[]) => api.get<{ result: User[] }>('users', { query: { id: ids } });
export const createUser = (api: Api, body: CreateUser) => api.post<OneResult<User>>('users', body);
export const updateUser = (api: Api, id: string, body: UpdateUser) => api.patch<OneResult<User>>(`users/${encodeURIComponent(id)}`, body);
export const deleteUser = (api: Api, id: string) => api.delete<OneResult<{ _id: string }>>(`users/${encodeURIComponent(id)}`);

/** Account drawer (SPEC §7: resource auth/users with an id): only the username may change. */
export const getAccount = (api: Api, id: string) => api.get<OneResult<User>>(`auth/users/${encodeURIComponent(id)}`);
export const updateAccount = (api: Api, id: string, body: { username: string }) =>
  api.patch<OneResult<User>>(`auth/users/${encodeURIComponent(id)}`, body);

export const usersListQueryOptions = (q: ListQuery) =>
  queryOptions({ queryKey: queryKeys.users.list(q), queryFn: () => listUsers(defaultApi, q) });
export const userQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.users.one(id), queryFn: () => getUser(defaultApi, id), retry: false });
