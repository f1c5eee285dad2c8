// zod/mini: the route tree (and so this schema) is in the sign-in page's bundle.
import * as z from 'zod/mini';
import type { ListQuery } from '../../../server/contract/common';

const pageSizes = [25, 50, 75, 100] as const;

/**
 * The Status Pages list's state lives in the URL, as the Checks list's does (issue 13): a link or
 * a reload keeps the search and the page. No sort: the list has one order, newest first.
 */
export const statusPagesSearchSchema = z.object({
  page: z._default(z.catch(z.coerce.number().check(z.int(), z.minimum(1)), 1), 1),
  pageSize: z._default(z.catch(z.pipe(z.coerce.number(), z.union(pageSizes.map((n) => z.literal(n)) as [z.ZodMiniLiteral<25>, z.ZodMiniLiteral<50>, z.ZodMiniLiteral<75>, z.ZodMiniLiteral<100>])), 25), 25),
  q: z.optional(z.catch(z.string(), '')),
});
export type StatusPagesSearch = z.infer<typeof statusPagesSearchSchema>;

/** The list query of the Status Pages screen for its URL state: search over slug and title, newest first. Light: the route's loader imports it. */
export function statusPagesListQuery(s: StatusPagesSearch): ListQuery {
  const search = s.q?.trim();
  return { pageNumber: s.page, pageSize: s.pageSize, sort: { by: 'createdAt', direction: 'desc' }, ...(search ? { search } : {}) };
}
