// zod/mini: the route tree (and so this schema) is in the sign-in page's bundle, where the
// full zod would cost ~27 KB gzip.
import * as z from 'zod/mini';
import type { ListQuery } from '../../../server/contract/common';

const pageSizes = [25, 50, 75, 100] as const;

/** Columns the groups API sorts by (server/routes/notification-groups.ts). */
export const groupSortFields = ['createdAt', 'updatedAt', 'name'] as const;
export type GroupSortField = (typeof groupSortFields)[number];

/** The list's state lives in the URL (SPEC §2): page, size, sort and the name search. */
export const groupsSearchSchema = z.object({
  page: z._default(z.catch(z.coerce.number().check(z.int(), z.minimum(1)), 1), 1),
  pageSize: z._default(z.catch(z.pipe(z.coerce.number(), z.union(pageSizes.map((n) => z.literal(n)) as [z.ZodMiniLiteral<25>, z.ZodMiniLiteral<50>, z.ZodMiniLiteral<75>, z.ZodMiniLiteral<100>])), 25), 25),
  sortBy: z._default(z.catch(z.enum(groupSortFields), 'createdAt'), 'createdAt'),
  sortDir: z._default(z.catch(z.enum(['asc', 'desc']), 'desc'), 'desc'),
  name: z.optional(z.catch(z.string(), '')),
});
export type GroupsSearch = z.infer<typeof groupsSearchSchema>;

/** The API list query for a URL state (SPEC §7 notification-groups: search by name). */
export function groupsListQuery(s: GroupsSearch): ListQuery {
  const name = s.name?.trim();
  return {
    pageNumber: s.page,
    pageSize: s.pageSize,
    sort: { by: s.sortBy, direction: s.sortDir },
    ...(name ? { filter: { name: { contains: name } } } : {}),
  };
}
