import { queryOptions } from '@tanstack/react-query';
import type { CreateNotificationGroup, NotificationGroup, UpdateNotificationGroup } from '../../server/contract/alerts';
import type { ListQuery, ListResult, OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

const id = (s: string) => encodeURIComponent(s);

/** SPEC §7 notification-groups: list (page size 100 in selectors, search by name), create, edit, get, delete. */
export const listNotificationGroups = (api: Api, q: ListQuery) => api.post<ListResult<NotificationGroup>>('notification-groups/all', q);
export const getNotificationGroup = (api: Api, groupId: string) => api.get<OneResult<NotificationGroup>>(`notification-groups/${id(groupId)}`);
export const createNotificationGroup = (api: Api, body: CreateNotificationGroup) => api.post<OneResult<NotificationGroup>>('notification-groups', body);
export const updateNotificationGroup = (api: Api, groupId: string, body: UpdateNotificationGroup) =>
  api.patch<OneResult<NotificationGroup>>(`notification-groups/${id(groupId)}`, body);
export const deleteNotificationGroup = (api: Api, groupId: string) => api.delete<OneResult<{ _id: string }>>(`notification-groups/${id(groupId)}`);

export const notificationGroupsListQueryOptions = (q: ListQuery) =>
  queryOptions({ queryKey: queryKeys.notificationGroups.list(q), queryFn: () => listNotificationGroups(defaultApi, q) });
export const notificationGroupQueryOptions = (groupId: string) =>
  queryOptions({ queryKey: queryKeys.notificationGroups.one(groupId), queryFn: () => getNotificationGroup(defaultApi, groupId), retry: false });
/** The rule editor's group selector (SPEC §9: option search page size 100). */
export const notificationGroupOptionsQueryOptions = (text: string) =>
  queryOptions({
    queryKey: queryKeys.notificationGroups.selector(text),
    queryFn: () => listNotificationGroups(defaultApi, { pageSize: 100, sort: { by: 'name', direction: 'asc' }, ...(text ? { search: text } : {}) }),
  });
