import type { ListQuery } from '../../../server/contract/common';

export const STATUS_PAGES_PAGE_SIZE = 25;

/** The list query of the Status Pages screen for its page and search text (newest first). Light: the route's loader imports it. */
export function statusPagesListQuery(state: { page: number; q: string }): ListQuery {
  const search = state.q.trim();
  return { pageNumber: state.page, pageSize: STATUS_PAGES_PAGE_SIZE, sort: { by: 'createdAt', direction: 'desc' }, ...(search ? { search } : {}) };
}
