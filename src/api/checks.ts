import { queryOptions } from '@tanstack/react-query';
import type { Check, CheckHistory, CheckResult, CheckUptime, CreateCheck, UpdateCheck } from '../../server/contract/checks';
import type { ListQuery, ListResult, OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

const id = (s: string) => encodeURIComponent(s);

/** What `POST checks/run-now/{id}` answers beside the check: the run's own result. */
export interface CheckRun {
  up: boolean;
  latencyMs: number | null;
  statusCode: number | null;
  error: string | null;
  certExpiresAt: string | null;
  certProblem: string | null;
}

/** Issue 16 checks: the generic resource calls plus run-now, history, results and uptime. */
export const listChecks = (api: Api, q: ListQuery) => api.post<ListResult<Check>>('checks/all', q);
export const getCheck = (api: Api, checkId: string) => api.get<OneResult<Check>>(`checks/${id(checkId)}`);
export const createCheck = (api: Api, body: CreateCheck) => api.post<OneResult<Check>>('checks', body);
export const updateCheck = (api: Api, checkId: string, body: UpdateCheck) => api.patch<OneResult<Check>>(`checks/${id(checkId)}`, body);
export const deleteCheck = (api: Api, checkId: string) => api.delete<OneResult<{ _id: string }>>(`checks/${id(checkId)}`);
export const runCheckNow = (api: Api, checkId: string) => api.post<OneResult<Check> & { run: CheckRun }>(`checks/run-now/${id(checkId)}`, {});
export const getCheckHistory = (api: Api, checkId: string, q: { from: number; to: number; step?: number }) => api.get<OneResult<CheckHistory>>(`checks/history/${id(checkId)}`, { query: q });
export const getCheckResults = (api: Api, checkId: string, limit = 50) => api.get<OneResult<CheckResult[]>>(`checks/results/${id(checkId)}`, { query: { limit } });
export const getCheckUptime = (api: Api, checkId: string) => api.get<OneResult<CheckUptime>>(`checks/uptime/${id(checkId)}`);

export const checksListQueryOptions = (q: ListQuery) => queryOptions({ queryKey: queryKeys.checks.list(q), queryFn: () => listChecks(defaultApi, q) });
export const checkQueryOptions = (checkId: string) => queryOptions({ queryKey: queryKeys.checks.one(checkId), queryFn: () => getCheck(defaultApi, checkId), retry: false });
export const checkHistoryQueryOptions = (checkId: string, from: number, to: number) =>
  queryOptions({ queryKey: queryKeys.checks.history(checkId, from, to), queryFn: () => getCheckHistory(defaultApi, checkId, { from, to }) });
export const checkResultsQueryOptions = (checkId: string) => queryOptions({ queryKey: queryKeys.checks.results(checkId), queryFn: () => getCheckResults(defaultApi, checkId, 20) });
export const checkUptimeQueryOptions = (checkId: string) => queryOptions({ queryKey: queryKeys.checks.uptime(checkId), queryFn: () => getCheckUptime(defaultApi, checkId) });
