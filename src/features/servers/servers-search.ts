// zod/mini: the route tree (and so this schema) is in the sign-in page's bundle, where the
// full zod would cost ~27 KB gzip.
import * as z from 'zod/mini';
import type { ListQuery } from '../../../server/contract/common';

const pageSizes = [25, 50, 75, 100] as const;

/** Columns the servers API sorts by (server/servers/resource.ts). */
export const serverSortFields = ['createdAt', 'hostname', 'ipaddress', 'state', 'cpuUsage', 'memoryUsage', 'diskUsage', 'networkUsage'] as const;
export type ServerSortField = (typeof serverSortFields)[number];

/** Every piece of list state lives in the URL (SPEC §2): page, size, sort, hostname search, view. */
export const serversSearchSchema = z.object({
  page: z._default(z.catch(z.coerce.number().check(z.int(), z.minimum(1)), 1), 1),
  pageSize: z._default(z.catch(z.pipe(z.coerce.number(), z.union(pageSizes.map((n) => z.literal(n)) as [z.ZodMiniLiteral<25>, z.ZodMiniLiteral<50>, z.ZodMiniLiteral<75>, z.ZodMiniLiteral<100>])), 25), 25),
  // SPEC §2: default sort createdAt descending.
  sortBy: z._default(z.catch(z.enum(serverSortFields), 'createdAt'), 'createdAt'),
  sortDir: z._default(z.catch(z.enum(['asc', 'desc']), 'desc'), 'desc'),
  hostname: z.optional(z.catch(z.string(), '')),
  view: z.optional(z.catch(z.enum(['cards', 'table']), 'cards')),
});
export type ServersSearch = z.infer<typeof serversSearchSchema>;

/** The API list query for a URL state (SPEC §7 Servers: paginated, hostname contains, sort). */
export function serversListQuery(s: ServersSearch): ListQuery {
  const hostname = s.hostname?.trim();
  return {
    pageNumber: s.page,
    pageSize: s.pageSize,
    sort: { by: s.sortBy, direction: s.sortDir },
    ...(hostname ? { filter: { hostname: { contains: hostname } } } : {}),
  };
}
