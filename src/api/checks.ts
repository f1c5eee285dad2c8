import { queryOptions } from '@tanstack/react-query';
import type { CreateCheck, UpdateCheck } from '../../server/contract/checks';
import type { ListQuery } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** What `POST checks/run-now/{id}` answers beside the check: the run's own result. */
export type { CheckRun } from '../../server/contract/checks';

/** Issue 16 checks: the generic resource calls plus run-now, history, results and uptime. */
export const listChecks = (api: Api, q: ListQuery) => call(api, 'checks.list', { body: q });
export const getCheck = (api: Api, checkId: string) => call(api, 'checks.get', { params: { id: checkId } });
export const createCheck = (api: Api, body: CreateCheck) => call(api, 'checks.create', { body });
export const updateCheck = (api: Api, checkId: string, body: UpdateCheck) => call(api, 'checks.update', { params: { id: checkId }, body });
export const deleteCheck = (api: Api, checkId: string) => call(api, 'checks.remove', { params: { id: checkId } });
export const runCheckNow = (api: Api, checkId: string) => call(api, 'checks.runNow', { params: { id: checkId } });
export const getCheckHistory = (api: Api, checkId: string, q: { from: number; to: number; step?: number }) => call(api, 'checks.history', { params: { id: checkId }, query: q });
export const getCheckResults = (api: Api, checkId: string, limit = 50) => call(api, 'checks.results', { params: { id: checkId }, query: { limit } });
export const getCheckUptime = (api: Api, checkId: string) => call(api, 'checks.uptime', { params: { id: checkId } });

export const checksListQueryOptions = (q: ListQuery) => queryOptions({ queryKey: queryKeys.checks.list(q), queryFn: () => listChecks(defaultApi, q) });
export const checkQueryOptions = (checkId: string) => queryOptions({ queryKey: queryKeys.checks.one(checkId), queryFn: () => getCheck(defaultApi, checkId), retry: false });
export const checkHistoryQueryOptions = (checkId: string, from: number, to: number) =>
  queryOptions({ queryKey: queryKeys.checks.history(checkId, from, to), queryFn: () => getCheckHistory(defaultApi, checkId, { from, to }) });
export const checkResultsQueryOptions = (checkId: string) => queryOptions({ queryKey: queryKeys.checks.results(checkId), queryFn: () => getCheckResults(defaultApi, checkId, 20) });
export const checkUptimeQueryOptions = (checkId: string) => queryOptions({ queryKey: queryKeys.checks.uptime(checkId), queryFn: () => getCheckUptime(defaultApi, checkId) });
