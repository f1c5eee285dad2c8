import { queryOptions } from '@tanstack/react-query';
import type { ListQuery } from '../../server/contract/common';
import type { CreateSchedule, ImportSchedule, LayerInput, LayerUpdate, OverrideInput, SwapInput, UpdateSchedule } from '../../server/contract/oncall';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** Issue 27 on call: schedules, their layers, overrides and swaps, who is on call, the final schedule, import and feeds. */
export const listSchedules = (api: Api, q: ListQuery) => call(api, 'oncallSchedules.list', { body: q });
export const getSchedule = (api: Api, id: string) => call(api, 'oncallSchedules.get', { params: { id } });
export const createSchedule = (api: Api, body: CreateSchedule) => call(api, 'oncallSchedules.create', { body });
export const updateSchedule = (api: Api, id: string, body: UpdateSchedule) => call(api, 'oncallSchedules.update', { params: { id }, body });
export const deleteSchedule = (api: Api, id: string) => call(api, 'oncallSchedules.remove', { params: { id } });
export const addLayer = (api: Api, id: string, body: LayerInput) => call(api, 'oncallSchedules.addLayer', { params: { id }, body });
export const editLayer = (api: Api, id: string, layer: string, body: LayerUpdate) => call(api, 'oncallSchedules.editLayer', { params: { id, layer }, body });
export const removeLayer = (api: Api, id: string, layer: string) => call(api, 'oncallSchedules.removeLayer', { params: { id, layer } });
export const addOverride = (api: Api, id: string, body: OverrideInput) => call(api, 'oncallSchedules.addOverride', { params: { id }, body });
export const removeOverride = (api: Api, id: string, override: string) => call(api, 'oncallSchedules.removeOverride', { params: { id, override } });
export const addSwap = (api: Api, id: string, body: SwapInput) => call(api, 'oncallSchedules.addSwap', { params: { id }, body });
export const finalSchedule = (api: Api, id: string, query: { from?: string; to?: string } = {}) => call(api, 'oncallSchedules.final', { params: { id }, query });
export const whoIsOnCall = (api: Api, query: { schedule?: string; at?: string } = {}) => call(api, 'oncall.who', { query });
export const scheduleGaps = (api: Api, query: { schedule?: string } = {}) => call(api, 'oncall.gaps', { query });
export const myShift = (api: Api) => call(api, 'oncall.myShift', {});
export const importSchedule = (api: Api, body: ImportSchedule) => call(api, 'oncallSchedules.import', { body });
export const createScheduleFeed = (api: Api, id: string) => call(api, 'oncallSchedules.createFeed', { params: { id } });
export const revokeScheduleFeed = (api: Api, id: string) => call(api, 'oncallSchedules.revokeFeed', { params: { id } });
export const createMyFeed = (api: Api) => call(api, 'oncall.createMyFeed', {});
export const revokeMyFeed = (api: Api) => call(api, 'oncall.revokeMyFeed', {});

export const schedulesListQueryOptions = () => queryOptions({ queryKey: queryKeys.oncall.list(), queryFn: () => listSchedules(defaultApi, { pageNumber: 1, pageSize: 100, sort: { by: 'name', direction: 'asc' } }) });
export const scheduleQueryOptions = (id: string) => queryOptions({ queryKey: queryKeys.oncall.one(id), queryFn: () => getSchedule(defaultApi, id), retry: false });
export const finalScheduleQueryOptions = (id: string, from: string, to: string) => queryOptions({ queryKey: queryKeys.oncall.final(id, from, to), queryFn: () => finalSchedule(defaultApi, id, { from, to }) });
export const whoQueryOptions = (schedule?: string) => queryOptions({ queryKey: queryKeys.oncall.who(schedule), queryFn: () => whoIsOnCall(defaultApi, schedule ? { schedule } : {}) });
export const myShiftQueryOptions = () => queryOptions({ queryKey: queryKeys.oncall.myShift(), queryFn: () => myShift(defaultApi) });
export const gapsQueryOptions = (schedule?: string) => queryOptions({ queryKey: queryKeys.oncall.gaps(schedule), queryFn: () => scheduleGaps(defaultApi, schedule ? { schedule } : {}) });
