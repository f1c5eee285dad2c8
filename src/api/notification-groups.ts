import { queryOptions } from '@tanstack/react-query';
import type { CreateNotificationGroup, UpdateNotificationGroup } from '../../server/contract/alerts';
import type { ChannelInput, ChannelUpdate } from '../../server/contract/channels';
import type { ListQuery } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** SPEC §7 notification-groups: list (page size 100 in selectors, search by name), create, edit, get, delete. */
export const listNotificationGroups = (api: Api, q: ListQuery) => call(api, 'notificationGroups.list', { body: q });
export const getNotificationGroup = (api: Api, groupId: string) => call(api, 'notificationGroups.get', { params: { id: groupId } });
export const createNotificationGroup = (api: Api, body: CreateNotificationGroup) => call(api, 'notificationGroups.create', { body });
export const updateNotificationGroup = (api: Api, groupId: string, body: UpdateNotificationGroup) => call(api, 'notificationGroups.update', { params: { id: groupId }, body });
export const deleteNotificationGroup = (api: Api, groupId: string) => call(api, 'notificationGroups.remove', { params: { id: groupId } });

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
export const listGroupChannels = (api: Api, groupId: string) => call(api, 'channels.list', { params: { id: groupId } });
export const addGroupChannel = (api: Api, groupId: string, body: ChannelInput) => call(api, 'channels.create', { params: { id: groupId }, body });
export const editGroupChannel = (api: Api, groupId: string, channel: string, body: ChannelUpdate) => call(api, 'channels.update', { params: { id: groupId, channel }, body });
export const removeGroupChannel = (api: Api, groupId: string, channel: string) => call(api, 'channels.remove', { params: { id: groupId, channel } });
export const testGroup = (api: Api, groupId: string, channel?: string) => call(api, 'notificationGroups.test', { params: { id: groupId }, body: channel ? { channel } : {} });
export const getAlertDeliveries = (api: Api, alertId: string) => call(api, 'alerts.deliveries', { params: { id: alertId } });

export const groupChannelsQueryOptions = (groupId: string) =>
  queryOptions({ queryKey: queryKeys.notificationGroups.channels(groupId), queryFn: () => listGroupChannels(defaultApi, groupId) });
export const alertDeliveriesQueryOptions = (alertId: string) =>
  queryOptions({ queryKey: ['alert-deliveries', alertId] as const, queryFn: () => getAlertDeliveries(defaultApi, alertId) });
