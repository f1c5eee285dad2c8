// zod/mini: the route tree (and so this schema) is in the sign-in page's bundle.
import * as z from 'zod/mini';
import type { ListQuery } from '../../../server/contract/common';

const pageSizes = [25, 50, 75, 100] as const;

/** Columns the checks API sorts by (server/routes/checks.ts). */
export const checkSortFields = ['createdAt', 'name', 'kind', 'state', 'latencyMs', 'lastCheckedAt', 'certExpiresAt'] as const;
export type CheckSortField = (typeof checkSortFields)[number];

/** The Checks list's state lives in the URL, as the servers list's does. */
export const checksSearchSchema = z.object({
  page: z._default(z.catch(z.coerce.number().check(z.int(), z.minimum(1)), 1), 1),
  pageSize: z._default(z.catch(z.pipe(z.coerce.number(), z.union(pageSizes.map((n) => z.literal(n)) as [z.ZodMiniLiteral<25>, z.ZodMiniLiteral<50>, z.ZodMiniLiteral<75>, z.ZodMiniLiteral<100>])), 25), 25),
  sortBy: z._default(z.catch(z.enum(checkSortFields), 'createdAt'), 'createdAt'),
  sortDir: z._default(z.catch(z.enum(['asc', 'desc']), 'desc'), 'desc'),
  q: z.optional(z.catch(z.string(), '')),
  state: z.optional(z.catch(z.enum(['up', 'down', 'paused']), 'up')),
});
export type ChecksSearch = z.infer<typeof checksSearchSchema>;

/** The API list query for a URL state: search over name and target, a state filter, sort. */
export function checksListQuery(s: ChecksSearch): ListQuery {
  const q = s.q?.trim();
  const filter: ListQuery['filter'] = s.state === 'paused' ? { paused: true } : s.state ? { state: s.state, paused: false } : undefined;
  return { pageNumber: s.page, pageSize: s.pageSize, sort: { by: s.sortBy, direction: s.sortDir }, ...(q ? { search: q } : {}), ...(filter ? { filter } : {}) };
}
