import { queryOptions } from '@tanstack/react-query';
import type { ListQuery } from '../../server/contract/common';
import type { CreateUser, UpdateUser } from '../../server/contract/users';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

export const listUsers = (api: Api, q: ListQuery) => call(api, 'users.list', { body: q });
export const getUser = (api: Api, id: string) => call(api, 'users.get', { params: { id } });
export const getManyUsers = (api: Api, ids: string[]) => call(api, 'users.byIds', { query: { id: ids } });
export const createUser = (api: Api, body: CreateUser) => call(api, 'users.create', { body });
export const updateUser = (api: Api, id: string, body: UpdateUser) => call(api, 'users.update', { params: { id }, body });
export const deleteUser = (api: Api, id: string) => call(api, 'users.remove', { params: { id } });

/** Account drawer (SPEC §7: resource auth/users with an id): only the username may change. */
export const getAccount = (api: Api, id: string) => call(api, 'auth.account', { params: { id } });
export const updateAccount = (api: Api, id: string, body: { username: string }) => call(api, 'auth.updateAccount', { params: { id }, body });

export const usersListQueryOptions = (q: ListQuery) =>
  queryOptions({ queryKey: queryKeys.users.list(q), queryFn: () => listUsers(defaultApi, q) });
export const userQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.users.one(id), queryFn: () => getUser(defaultApi, id), retry: false });
