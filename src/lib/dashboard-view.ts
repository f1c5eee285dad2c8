// zod/mini: the route tree (and so this schema) is in the sign-in page's bundle.
import * as z from 'zod/mini';
import type { ListQuery } from '../../server/contract/common';

/**
 * The dashboard's view state (SPEC §2 Dashboard), in the URL so a link or a reload keeps it:
 * the threshold of each high-usage card and the Instance Down table's hostname filter and page.
 * Shared by the route's validateSearch, the screen and the `dashboard.*` commands.
 */

/** Cards a refresh can name; the order is the screen's. */
export const dashboardCards = ['instances', 'alerts', 'cpu', 'memory', 'disk', 'services', 'down-servers', 'instance-down'] as const;
export type DashboardCard = (typeof dashboardCards)[number];
export const dashboardCardTitles: Record<DashboardCard, string> = {
  instances: 'Instance Summary',
  alerts: 'Alerts Summary',
  cpu: 'High CPU Usage Servers',
  memory: 'High Memory Usage Servers',
  disk: 'High Disk Usage Servers',
  services: 'Services Down',
  'down-servers': 'Down Servers',
  'instance-down': 'Instance Down',
};

/** The high-usage cards, which offer SPEC §9's thresholds. */
export const thresholdCards = ['cpu', 'memory', 'disk'] as const;
export type ThresholdCard = (typeof thresholdCards)[number];
export const thresholdValues = ['90', '80', '70', '60'] as const;
export type ThresholdValue = (typeof thresholdValues)[number];
export const DEFAULT_DASHBOARD_THRESHOLD = 90;
export const thresholdOptions = thresholdValues.map((v) => ({ value: v, label: `above ${v}` }));

/** SPEC §9: Instance Down page size 25, options 25/50/75/100. */
export const instanceDownPageSizes = [25, 50, 75, 100] as const;

const optionalThreshold = z.catch(z.optional(z.pipe(z.coerce.number(), z.union([z.literal(90), z.literal(80), z.literal(70), z.literal(60)]))), undefined);

export const dashboardSearchSchema = z.object({
  cpu: optionalThreshold,
  memory: optionalThreshold,
  disk: optionalThreshold,
  /** Instance Down: hostname contains. */
  host: z.catch(z.optional(z.pipe(z.union([z.string(), z.number(), z.boolean()]), z.transform((v) => String(v)))), undefined),
  page: z.catch(z.optional(z.coerce.number().check(z.int(), z.minimum(1))), undefined),
  pageSize: z.catch(
    z.optional(z.pipe(z.coerce.number(), z.union([z.literal(25), z.literal(50), z.literal(75), z.literal(100)]))),
    undefined,
  ),
});
export type DashboardSearch = z.infer<typeof dashboardSearchSchema>;

export function thresholdOf(search: DashboardSearch, card: ThresholdCard): number {
  return search[card] ?? DEFAULT_DASHBOARD_THRESHOLD;
}

/** `/?…` for a search object; undefined, empty and default values are left out. */
export function dashboardHref(search: Partial<Record<keyof DashboardSearch, unknown>>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) {
    if (v === undefined || v === null || v === '') continue;
    // Strings that look like JSON are quoted, as TanStack Router's own serialisation does.
    params.set(k, typeof v === 'string' && /^[\d\-"{[tfn]/.test(v) ? JSON.stringify(v) : String(v));
  }
  const qs = params.toString();
  return `/${qs ? `?${qs}` : ''}`;
}

/** The dashboard's parsed search when it is the open screen, else null. */
export function openDashboard(location: { pathname: string; search: Record<string, unknown> } | undefined): DashboardSearch | null {
  if (!location || (location.pathname !== '/' && location.pathname !== '')) return null;
  const parsed = z.safeParse(dashboardSearchSchema, location.search ?? {});
  return parsed.success ? parsed.data : {};
}

/** SPEC §2 Instance Down: firing alerts, newest first, page size 25 (25/50/75/100), hostname contains. */
export function instanceDownQuery(search: DashboardSearch): ListQuery {
  return {
    pageNumber: search.page ?? 1,
    pageSize: search.pageSize ?? 25,
    sort: { by: 'createdAt', direction: 'desc' },
    filter: { status: { eq: 'firing' }, ...(search.host ? { hostname: { contains: search.host } } : {}) },
  };
}
