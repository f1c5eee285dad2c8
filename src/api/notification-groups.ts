import { queryOptions } from '@tanstack/react-query';
import type { CreateNotificationGroup, NotificationGroup, UpdateNotificationGroup } from '../../server/contract/alerts';
import type { ChannelInput, ChannelTestResult, ChannelUpdate, DeliveryLogEntry, NotificationChannel } from '../../server/contract/channels';
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

// Issue 15: a group's channel targets, its test notification, and an alert's delivery log.
export const listGroupChannels = (api: Api, groupId: string) => api.get<{ result: NotificationChannel[] }>(`notification-groups/${id(groupId)}/channels`);
export const addGroupChannel = (api: Api, groupId: string, body: ChannelInput) => api.post<OneResult<NotificationChannel>>(`notification-groups/${id(groupId)}/channels`, body);
export const editGroupChannel = (api: Api, groupId: string, channel: string, body: ChannelUpdate) =>
  api.patch<OneResult<NotificationChannel>>(`notification-groups/${id(groupId)}/channels/${id(channel)}`, body);
export const removeGroupChannel = (api: Api, groupId: string, channel: string) => api.delete<OneResult<NotificationChannel>>(`notification-groups/${id(groupId)}/channels/${id(channel)}`);
export const testGroup = (api: Api, groupId: string, channel?: string) => api.post<{ result: ChannelTestResult[] }>(`notification-groups/${id(groupId)}/test`, channel ? { channel } : {});
export const getAlertDeliveries = (api: Api, alertId: string) => api.get<{ result: DeliveryLogEntry[] }>(`alerts/${id(alertId)}/deliveries`);

export const groupChannelsQueryOptions = (groupId: string) =>
  queryOptions({ queryKey: queryKeys.notificationGroups.channels(groupId), queryFn: () => listGroupChannels(defaultApi, groupId) });
export const alertDeliveriesQueryOptions = (alertId: string) =>
  queryOptions({ queryKey: ['alert-deliveries', alertId] as const, queryFn: () => getAlertDeliveries(defaultApi, alertId) });
