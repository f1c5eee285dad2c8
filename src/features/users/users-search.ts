// zod/mini: the route tree (and so this schema) is in the sign-in page's bundle, where the
// full zod would cost ~27 KB gzip.
import * as z from 'zod/mini';
import type { ListQuery } from '../../../server/contract/common';

const pageSizes = [25, 50, 75, 100] as const;
const optionalText = z.optional(z.catch(z.string(), ''));

/** Every piece of list state lives in the URL (SPEC §2): page, size, sort, filters, search, view. */
export const usersSearchSchema = z.object({
  page: z._default(z.catch(z.coerce.number().check(z.int(), z.minimum(1)), 1), 1),
  pageSize: z._default(z.catch(z.pipe(z.coerce.number(), z.union(pageSizes.map((n) => z.literal(n)) as [z.ZodMiniLiteral<25>, z.ZodMiniLiteral<50>, z.ZodMiniLiteral<75>, z.ZodMiniLiteral<100>])), 25), 25),
  sortBy: z._default(z.catch(z.enum(['createdAt', 'username', 'email', 'role']), 'createdAt'), 'createdAt'),
  sortDir: z._default(z.catch(z.enum(['asc', 'desc']), 'asc'), 'asc'),
  search: optionalText,
  username: optionalText,
  email: optionalText,
  role: optionalText,
  view: z.optional(z.catch(z.enum(['table', 'cards']), 'table')),
});
export type UsersSearch = z.infer<typeof usersSearchSchema>;

/** The API list query for a URL state (SPEC §7 Users: username, email, role contains; search). */
export function usersListQuery(s: UsersSearch): ListQuery {
  const filter: NonNullable<ListQuery['filter']> = {};
  if (s.username) filter.username = { contains: s.username };
  if (s.email) filter.email = { contains: s.email };
  if (s.role) filter.role = { contains: s.role };
  return {
    pageNumber: s.page,
    pageSize: s.pageSize,
    sort: { by: s.sortBy, direction: s.sortDir },
    ...(Object.keys(filter).length ? { filter } : {}),
    ...(s.search ? { search: s.search } : {}),
  };
}
