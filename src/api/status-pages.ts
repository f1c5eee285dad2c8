import { queryOptions } from '@tanstack/react-query';
import type { ListQuery, ListResult, OneResult } from '../../server/contract/common';
import type { CreateStatusPage, PostedIncident, PublicStatus, StatusPage, StatusPostInput, StatusResolveInput, UpdateStatusPage } from '../../server/contract/status-pages';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

const id = (s: string) => encodeURIComponent(s);

/** Issue 16 status pages: the generic resource calls, incident posts, and the public view (no sign-in). */
export const listStatusPages = (api: Api, q: ListQuery) => api.post<ListResult<StatusPage>>('status-pages/all', q);
export const getStatusPage = (api: Api, pageId: string) => api.get<OneResult<StatusPage>>(`status-pages/${id(pageId)}`);
export const createStatusPage = (api: Api, body: CreateStatusPage) => api.post<OneResult<StatusPage>>('status-pages', body);
export const updateStatusPage = (api: Api, pageId: string, body: UpdateStatusPage) => api.patch<OneResult<StatusPage>>(`status-pages/${id(pageId)}`, body);
export const deleteStatusPage = (api: Api, pageId: string) => api.delete<OneResult<{ _id: string }>>(`status-pages/${id(pageId)}`);
export const postStatusUpdate = (api: Api, pageId: string, body: StatusPostInput) => api.post<OneResult<PostedIncident>>(`status-pages/post/${id(pageId)}`, body);
export const resolveStatusIncident = (api: Api, pageId: string, body: StatusResolveInput) => api.post<OneResult<PostedIncident>>(`status-pages/resolve/${id(pageId)}`, body);
export const getPublicStatus = (api: Api, slug: string) => api.get<OneResult<PublicStatus>>(`public/status/${id(slug)}`);

export const statusPagesListQueryOptions = (q: ListQuery) => queryOptions({ queryKey: queryKeys.statusPages.list(q), queryFn: () => listStatusPages(defaultApi, q) });
export const statusPageQueryOptions = (pageId: string) => queryOptions({ queryKey: queryKeys.statusPages.one(pageId), queryFn: () => getStatusPage(defaultApi, pageId), retry: false });
export const publicStatusQueryOptions = (slug: string) => queryOptions({ queryKey: queryKeys.statusPages.public(slug), queryFn: () => getPublicStatus(defaultApi, slug), retry: false });
