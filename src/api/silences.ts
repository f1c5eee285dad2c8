import { queryOptions } from '@tanstack/react-query';
import type { CreateSilence, MatchPreview, Silence, SilencePreviewRequest, UpdateSilence } from '../../server/contract/routing';
import type { ListQuery, ListResult, OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

const id = (s: string) => encodeURIComponent(s);

/** Issue 14 §2 silences: list, get, create, edit, expire, and a preview of what matchers match now. */
export const listSilences = (api: Api, q: ListQuery) => api.post<ListResult<Silence>>('silences/all', q);
export const getSilence = (api: Api, silenceId: string) => api.get<OneResult<Silence>>(`silences/${id(silenceId)}`);
export const createSilence = (api: Api, body: CreateSilence) => api.post<OneResult<Silence>>('silences', body);
export const updateSilence = (api: Api, silenceId: string, body: UpdateSilence) => api.patch<OneResult<Silence>>(`silences/${id(silenceId)}`, body);
export const expireSilence = (api: Api, silenceId: string) => api.post<OneResult<Silence>>(`silences/${id(silenceId)}/expire`, {});
export const previewSilence = (api: Api, body: SilencePreviewRequest) => api.post<OneResult<MatchPreview>>('silences/preview', body);

/** Active and pending (ends after now) or expired (ended), newest end first. */
export const silencesQuery = (state: 'current' | 'expired', pageSize = 100): ListQuery => {
  const now = new Date().toISOString();
  return {
    pageNumber: 1,
    pageSize,
    filter: { endsAt: { between: state === 'current' ? [now, '9999-12-31T00:00:00Z'] : ['1970-01-01T00:00:00Z', now] } },
    sort: { by: 'endsAt', direction: state === 'current' ? 'asc' : 'desc' },
  };
};
export const silencesListQueryOptions = (state: 'current' | 'expired') =>
  queryOptions({ queryKey: queryKeys.silences.list(state), queryFn: () => listSilences(defaultApi, silencesQuery(state)) });
export const silenceQueryOptions = (silenceId: string) =>
  queryOptions({ queryKey: queryKeys.silences.one(silenceId), queryFn: () => getSilence(defaultApi, silenceId), retry: false });
export const silencePreviewQueryOptions = (body: SilencePreviewRequest) =>
  queryOptions({ queryKey: queryKeys.matchPreview.silence(body), queryFn: () => previewSilence(defaultApi, body), retry: false });
