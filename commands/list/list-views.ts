import { searchHref } from '../../src/lib/search-href';
import type { CommandContext } from '../define-command';

/**
 * The list screens whose view state (search, view, page size, sort, filters) lives in the URL
 * (SPEC §2), so the list commands change it the way the screens' own controls do: one
 * navigation to the same path with a new search. The screens' controls run these commands.
 */
/** A filter of a list beside its search: a URL key, what a person calls it, and its choices (none: free text). */
export interface ListFilter {
  key: string;
  label: string;
  options?: readonly { value: string; label: string }[];
}

export interface ListView {
  key: 'servers' | 'alerts' | 'users' | 'groups' | 'checks' | 'status-pages';
  /** As a person calls the screen. */
  name: string;
  path: string;
  /** The URL key the screen's search box writes. */
  searchKey: string;
  /** What that search box searches, for messages. */
  searchLabel: string;
  /** Its other filters that `list.filter` sets (the alerts' status and dates have `alerts.filter`). */
  filters?: readonly ListFilter[];
  /** Sub-paths that are drawers over the list (default: every one), e.g. not a check's own page. */
  drawers?: RegExp;
  /** Whether the screen has a card / table switch. */
  views: boolean;
  /** SPEC §2 Notifications: switching between cards and table clears the filters (the page size stays). */
  viewClearsFilters?: boolean;
  /** Columns it sorts by (URL `sortBy`/`sortDir`), with the names its headers show; none: the list has one order. */
  sort: readonly { value: string; label: string }[];
}

// The columns each list's URL schema sorts by (src/features/*/…-search.ts; list-views.test.ts keeps them equal):
// commands do not import features.
const serverSortFields = ['createdAt', 'hostname', 'ipaddress', 'state', 'cpuUsage', 'memoryUsage', 'diskUsage', 'networkUsage'] as const;
const userSortFields = ['createdAt', 'username', 'email', 'role'] as const;
const groupSortFields = ['createdAt', 'updatedAt', 'name'] as const;
const checkSortFields = ['createdAt', 'name', 'kind', 'state', 'latencyMs', 'lastCheckedAt', 'certExpiresAt'] as const;

const label = (field: string) =>
  ({ createdAt: 'Created', updatedAt: 'Updated', hostname: 'Hostname', ipaddress: 'IP Address', state: 'State', cpuUsage: 'CPU', memoryUsage: 'Memory', diskUsage: 'Disk', networkUsage: 'Network', name: 'Name', username: 'Username', email: 'Email', role: 'Role', kind: 'Kind', latencyMs: 'Response time', lastCheckedAt: 'Last checked', certExpiresAt: 'Certificate expires' })[field] ?? field;

export const listViews: readonly ListView[] = [
  {
    key: 'servers',
    name: 'Servers',
    path: '/servers',
    searchKey: 'hostname',
    searchLabel: 'hostname',
    views: true,
    sort: serverSortFields.map((f) => ({ value: f, label: label(f) })),
    // /servers/show/… is a server's own page, not a drawer over the list.
    drawers: /^\/servers\/(new|edit\/[^/]+)$/,
  },
  { key: 'alerts', name: 'Notifications', path: '/notifications', searchKey: 'hostname', searchLabel: 'hostname', views: true, viewClearsFilters: true, sort: [], drawers: /^\/notifications\/(show\/[^/]+|create|edit\/[^/]+)$/ },
  {
    key: 'users',
    name: 'Users',
    path: '/users',
    searchKey: 'search',
    searchLabel: 'username, email or phone',
    views: true,
    sort: userSortFields.map((f) => ({ value: f, label: label(f) })),
    // The table's column filters.
    filters: [
      { key: 'username', label: 'Name' },
      { key: 'email', label: 'Email' },
      { key: 'role', label: 'Role' },
    ],
  },
  { key: 'groups', name: 'Notification Groups', path: '/notification-groups', searchKey: 'name', searchLabel: 'name', views: false, sort: groupSortFields.map((f) => ({ value: f, label: label(f) })) },
  {
    key: 'checks',
    name: 'Checks',
    path: '/checks',
    searchKey: 'q',
    searchLabel: 'name or target',
    views: false,
    sort: checkSortFields.map((f) => ({ value: f, label: label(f) })),
    filters: [
      {
        key: 'state',
        label: 'State',
        options: [
          { value: 'up', label: 'Up' },
          { value: 'down', label: 'Down' },
          { value: 'paused', label: 'Paused' },
        ],
      },
    ],
    // /checks/show/… is a check's own page.
    drawers: /^\/checks\/(create|edit\/[^/]+)$/,
  },
  // One order (newest first): no sort. src/features/status-pages/status-pages-query.ts reads these keys.
  { key: 'status-pages', name: 'Status Pages', path: '/status-pages', searchKey: 'q', searchLabel: 'slug or title', views: false, sort: [], drawers: /^\/status-pages\/(create|edit\/[^/]+)$/ },
];

export const pageSizes = [25, 50, 75, 100] as const;

/** The list screen that is open now (its drawers included: /servers/show/… is a server's page, not the list). */
export function openList(ctx: CommandContext): { list: ListView; search: Record<string, unknown> } | null {
  const location = ctx.location?.();
  if (!location) return null;
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const list = listViews.find((l) => path === l.path || (path.startsWith(`${l.path}/`) && (l.drawers ? l.drawers.test(path) : true)));
  return list ? { list, search: location.search ?? {} } : null;
}

const names = (lists: readonly ListView[]) => lists.map((l) => l.name).join(', ').replace(/, ([^,]*)$/, ' or $1');

/** `enabled` of a list command: the open screen is one of these lists. */
export function needsList(which: (l: ListView) => boolean) {
  const lists = listViews.filter(which);
  const reason = `Open a list first: ${names(lists)}.`;
  return (ctx: CommandContext): true | string => {
    const open = openList(ctx);
    return open && which(open.list) ? true : reason;
  };
}

/** Navigates to the list's path with the search changed by `patch` (undefined removes a key); page 1 unless the patch says. */
export function changeList(ctx: CommandContext, list: ListView, search: Record<string, unknown>, patch: Record<string, unknown>): void {
  const open = openList(ctx);
  const onList = open?.list.key === list.key;
  // From a drawer of the list (/users/show/…), back to the list itself with its state. On the
  // list, the entry is replaced as the screen's controls do: typing a search adds no history.
  ctx.navigate(searchHref(list.path, { ...(onList ? search : {}), page: undefined, ...patch }), { replace: onList && ctx.location?.().pathname === list.path });
}

export const listByKey = (key: ListView['key']) => listViews.find((l) => l.key === key)!;
