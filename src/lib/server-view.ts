import { searchHref } from './search-href';
// zod/mini: the route tree (and so this schema) is in the sign-in page's bundle.
import * as z from 'zod/mini';
import {
  DEFAULT_RANGE,
  DEFAULT_TIME_ZONE,
  defaultRefresh,
  rangeValues,
  refreshValues,
  timeZones,
  validateCustomRange,
  type RangeValue,
  type RefreshInterval,
  type TimeZoneChoice,
} from './time-range';

/**
 * The server detail's view state (SPEC §2 "Server detail"), all of it in the URL: the tab, the
 * time range (preset or custom from/to in unix ms), UTC or local time, the refresh interval,
 * and the Services tab's name search, status filter and page. Shared by the route's
 * validateSearch, the screen and the `server.*` view commands.
 */

export const serverTabs = ['overview', 'cpu', 'memory', 'network', 'disk', 'services', 'notifications', 'alerts-config'] as const;
export type ServerTab = (typeof serverTabs)[number];
export const serverTabLabels: Record<ServerTab, string> = {
  overview: 'Overview',
  cpu: 'CPU',
  memory: 'Memory',
  network: 'Network',
  disk: 'Disk',
  services: 'Services',
  notifications: 'Notifications',
  'alerts-config': 'Alerts Configuration',
};
/** Tabs that draw metric panels and carry the time-range bar. */
export const metricTabs: readonly ServerTab[] = ['overview', 'cpu', 'memory', 'network', 'disk'];

/** SPEC §2: Windows servers have the same tabs without Overview. */
export function tabsFor(os: 'linux' | 'windows'): ServerTab[] {
  return os === 'windows' ? serverTabs.filter((t) => t !== 'overview') : [...serverTabs];
}

export const serviceStatusFilters = ['all', 'up', 'down'] as const;
export type ServiceStatusFilter = (typeof serviceStatusFilters)[number];
export const servicePageSizes = [25, 50, 75, 100] as const;
export type ServicePageSize = (typeof servicePageSizes)[number];

/** An invalid value is dropped, never an error page: the screen then uses its default. */
const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) => z.catch(z.optional(z.enum(values)), undefined);
const optionalMs = z.catch(z.optional(z.coerce.number().check(z.int(), z.minimum(0))), undefined);

export const serverDetailSearchSchema = z.object({
  tab: optionalEnum(serverTabs),
  range: optionalEnum(rangeValues),
  from: optionalMs,
  to: optionalMs,
  tz: optionalEnum(timeZones),
  refresh: optionalEnum(refreshValues),
  /** Services tab: service name contains. */
  q: z.catch(z.optional(z.pipe(z.union([z.string(), z.number(), z.boolean()]), z.transform((v) => String(v)))), undefined),
  status: optionalEnum(serviceStatusFilters),
  page: z.catch(z.optional(z.coerce.number().check(z.int(), z.minimum(1))), undefined),
  pageSize: z.catch(z.optional(z.pipe(z.coerce.number(), z.union(servicePageSizes.map((n) => z.literal(n)) as [z.ZodMiniLiteral<25>, z.ZodMiniLiteral<50>, z.ZodMiniLiteral<75>, z.ZodMiniLiteral<100>]))), undefined),
  /** `?configure=1`: the 'Configure Now' link opens the agent set-up wizard. */
  configure: z.catch(z.optional(z.pipe(z.coerce.number(), z.literal(1))), undefined),
});
export type ServerDetailSearch = z.infer<typeof serverDetailSearchSchema>;

export interface ServerView {
  tab: ServerTab;
  range: RangeValue;
  from?: number;
  to?: number;
  tz: TimeZoneChoice;
  refresh: RefreshInterval;
  q: string;
  status: ServiceStatusFilter;
  page: number;
  pageSize: ServicePageSize;
}

/**
 * The URL state with the defaults filled in for this server's OS: the first tab (Overview, or
 * CPU on Windows), Last 1 Hour, UTC, 10s (5m on Windows). A tab the OS does not have and a
 * custom range that is not a valid pair fall back to the defaults.
 */
export function resolveServerView(search: ServerDetailSearch, os: 'linux' | 'windows'): ServerView {
  const tabs = tabsFor(os);
  const tab = search.tab && tabs.includes(search.tab) ? search.tab : tabs[0]!;
  const custom = search.range === 'custom' && validateCustomRange(search.from, search.to) === true;
  return {
    tab,
    range: custom ? 'custom' : search.range && search.range !== 'custom' ? search.range : DEFAULT_RANGE,
    ...(custom ? { from: search.from, to: search.to } : {}),
    tz: search.tz ?? DEFAULT_TIME_ZONE,
    refresh: search.refresh ?? defaultRefresh(os),
    q: search.q ?? '',
    status: search.status ?? 'all',
    page: search.page ?? 1,
    pageSize: search.pageSize ?? 25,
  };
}

/** `/servers/show/<id>?…` for a search object; undefined and empty values are left out. */
export function serverDetailHref(serverId: string, search: Partial<Record<keyof ServerDetailSearch, unknown>> = {}): string {
  return searchHref(`/servers/show/${encodeURIComponent(serverId)}`, search);
}

const DETAIL_PATH = /^\/servers\/show\/([^/]+)\/?$/;

/** The server id of a server-detail path, or null for any other screen. */
export function serverIdFromPath(pathname: string): string | null {
  const m = DETAIL_PATH.exec(pathname);
  return m ? decodeURIComponent(m[1]!) : null;
}
