import { z } from 'zod';
import type { ListQuery } from '../../../server/contract/common';

/** Every piece of list state lives in the URL (SPEC §2): page, size, sort, filters, search, view. */
export const usersSearchSchema = z.object({
  page: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce.number().pipe(z.union([z.literal(25), z.literal(50), z.literal(75), z.literal(100)])).catch(25).default(25),
  sortBy: z.enum(['createdAt', 'username', 'email', 'role']).catch('createdAt').default('createdAt'),
  sortDir: z.enum(['asc', 'desc']).catch('asc').default('asc'),
  search: z.string().catch('').optional(),
  username: z.string().catch('').optional(),
  email: z.string().catch('').optional(),
  role: z.string().catch('').optional(),
  view: z.enum(['table', 'cards']).catch('table').optional(),
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
