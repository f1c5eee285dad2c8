// zod/mini: the route tree (and so this schema) is in the sign-in page's bundle.
import * as z from 'zod/mini';
import type { ListQuery } from '../../../server/contract/common';

const pageSizes = [25, 50, 75, 100] as const;
export const statusFilters = ['all', 'firing', 'resolved', 'snoozed'] as const;
export type StatusFilter = (typeof statusFilters)[number];
/** SPEC §2: All / Active (firing) / Resolved / Snoozed. */
export const statusFilterOptions: readonly { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'firing', label: 'Active' },
  { value: 'resolved', label: 'Resolved' },
  { value: 'snoozed', label: 'Snoozed' },
];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = z.optional(z.catch(z.pipe(z.string(), z.transform((v) => (DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00`)) ? v : undefined))), undefined));

/** The Notifications page's view state, all in the URL: page, size, hostname, status, date range, cards or table. */
export const notificationsSearchSchema = z.object({
  page: z._default(z.catch(z.coerce.number().check(z.int(), z.minimum(1)), 1), 1),
  pageSize: z._default(z.catch(z.pipe(z.coerce.number(), z.union(pageSizes.map((n) => z.literal(n)) as [z.ZodMiniLiteral<25>, z.ZodMiniLiteral<50>, z.ZodMiniLiteral<75>, z.ZodMiniLiteral<100>])), 25), 25),
  hostname: z.optional(z.catch(z.string(), '')),
  // Not `status`/`from`/`to`: other routes use those names with other types, and a search
  // reducer without `from` sees the union of every route's search.
  alertStatus: z._default(z.catch(z.enum(statusFilters), 'all'), 'all'),
  /** Triggered on or after this day (local time), YYYY-MM-DD. */
  since: day,
  /** Triggered on or before this day (local time), YYYY-MM-DD. */
  until: day,
  view: z.optional(z.catch(z.enum(['cards', 'table']), 'cards')),
});
export type NotificationsSearch = z.infer<typeof notificationsSearchSchema>;

/** What a list of alerts is filtered by: the page's URL state, or the server tab's own state. */
export interface AlertListFilters {
  page: number;
  pageSize: number;
  hostname?: string;
  status: StatusFilter;
  from?: string;
  to?: string;
}

const OPEN_START = '1970-01-01T00:00:00.000Z';
const OPEN_END = '9999-12-31T23:59:59.999Z';

/** A day range in local time as the API's createdAt between [from, to], inclusive; one end may be open. */
export function dayRange(from: string | undefined, to: string | undefined): [string, string] | undefined {
  if (!from && !to) return undefined;
  let [a, b] = [from, to];
  if (a && b && a > b) [a, b] = [b, a];
  const start = a ? new Date(`${a}T00:00:00`).toISOString() : OPEN_START;
  const end = b ? new Date(new Date(`${b}T00:00:00`).getTime() + 86_400_000 - 1).toISOString() : OPEN_END;
  return [start, end];
}

/**
 * SPEC §7 alerts list: serverId, status, hostname contains, createdAt between; page size 25.
 * Under "All" what is firing comes first (issue 24 §2: the sort `firing`, firing alerts newest
 * first, then the others newest first); one status is SPEC's createdAt desc.
 */
export function alertsListQuery(f: AlertListFilters, serverId?: string): ListQuery {
  const hostname = f.hostname?.trim();
  const range = dayRange(f.from, f.to);
  return {
    pageNumber: f.page,
    pageSize: f.pageSize,
    // 'firing' is the contract's FIRING_SORT, spelled out: server/contract/alerts.ts would bring
    // full zod into the sign-in page's bundle (the test holds the two equal).
    sort: f.status === 'all' ? { by: 'firing', direction: 'desc' } : { by: 'createdAt', direction: 'desc' },
    filter: {
      ...(serverId ? { serverId: { eq: serverId } } : {}),
      ...(f.status !== 'all' ? { status: { eq: f.status } } : {}),
      ...(hostname ? { hostname: { contains: hostname } } : {}),
      ...(range ? { createdAt: { between: range } } : {}),
    },
  };
}

/** The URL state as list filters. */
export const searchToFilters = (s: NotificationsSearch): AlertListFilters => ({ page: s.page, pageSize: s.pageSize, hostname: s.hostname, status: s.alertStatus, from: s.since, to: s.until });

export const hasFilters = (f: Pick<AlertListFilters, 'hostname' | 'status' | 'from' | 'to'>) => !!f.hostname?.trim() || f.status !== 'all' || !!f.from || !!f.to;
