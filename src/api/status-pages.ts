import { queryOptions } from '@tanstack/react-query';
import type { ListQuery } from '../../server/contract/common';
import type { CreateStatusPage, StatusPostInput, StatusResolveInput, UpdateStatusPage } from '../../server/contract/status-pages';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** Issue 16 status pages: the generic resource calls, incident posts, and the public view (no sign-in). */
export const listStatusPages = (api: Api, q: ListQuery) => call(api, 'statusPages.list', { body: q });
export const getStatusPage = (api: Api, pageId: string) => call(api, 'statusPages.get', { params: { id: pageId } });
export const createStatusPage = (api: Api, body: CreateStatusPage) => call(api, 'statusPages.create', { body });
export const updateStatusPage = (api: Api, pageId: string, body: UpdateStatusPage) => call(api, 'statusPages.update', { params: { id: pageId }, body });
export const deleteStatusPage = (api: Api, pageId: string) => call(api, 'statusPages.remove', { params: { id: pageId } });
export const postStatusUpdate = (api: Api, pageId: string, body: StatusPostInput) => call(api, 'statusPages.post', { params: { id: pageId }, body });
export const resolveStatusIncident = (api: Api, pageId: string, body: StatusResolveInput) => call(api, 'statusPages.resolve', { params: { id: pageId }, body });
export const getPublicStatus = (api: Api, slug: string) => call(api, 'statusPages.public', { params: { slug } });

export const statusPagesListQueryOptions = (q: ListQuery) => queryOptions({ queryKey: queryKeys.statusPages.list(q), queryFn: () => listStatusPages(defaultApi, q) });
export const statusPageQueryOptions = (pageId: string) => queryOptions({ queryKey: queryKeys.statusPages.one(pageId), queryFn: () => getStatusPage(defaultApi, pageId), retry: false });
export const publicStatusQueryOptions = (slug: string) => queryOptions({ queryKey: queryKeys.statusPages.public(slug), queryFn: () => getPublicStatus(defaultApi, slug), retry: false });
