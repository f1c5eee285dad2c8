import { queryOptions } from '@tanstack/react-query';
import type { CreateSilence, SilencePreviewRequest, UpdateSilence } from '../../server/contract/routing';
import type { ListQuery } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** Expire takes no body, yet the web client has always sent `{}` (and History shows the body it got): kept so. */
const EMPTY_BODY = { body: {} } as {};

/** Issue 14 §2 silences: list, get, create, edit, expire, and a preview of what matchers match now. */
export const listSilences = (api: Api, q: ListQuery) => call(api, 'silences.list', { body: q });
export const getSilence = (api: Api, silenceId: string) => call(api, 'silences.get', { params: { id: silenceId } });
export const createSilence = (api: Api, body: CreateSilence) => call(api, 'silences.create', { body });
export const updateSilence = (api: Api, silenceId: string, body: UpdateSilence) => call(api, 'silences.update', { params: { id: silenceId }, body });
export const expireSilence = (api: Api, silenceId: string) => call(api, 'silences.expire', { params: { id: silenceId }, ...EMPTY_BODY });
export const previewSilence = (api: Api, body: SilencePreviewRequest) => call(api, 'silences.preview', { body });

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
