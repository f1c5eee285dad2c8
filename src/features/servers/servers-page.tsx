import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Outlet } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { useListView, ViewSwitch } from '../../components/ui/view-switch';
import type { Server } from '../../../server/contract/servers';
import { monitoringConfigQueryOptions, serverMetricsListQueryOptions } from '../../api/servers';
import { MonitoringBanner } from '../../components/monitoring/monitoring-banner';
import { Button } from '../../components/ui/button';
import type { MenuAction } from '../../components/ui/menu';
import { ListPagination } from '../../components/ui/list-pagination';
import { SearchField } from '../../components/ui/search-field';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useMarkableRows } from '../../components/ui/marks';
import { DeleteServerDialog } from './delete-server-dialog';
import { ServerCard, ServerCardSkeleton } from './server-card';
import { ServersTable } from './servers-table';
import { serversListQuery, type ServerSortField, type ServersSearch } from './servers-search';
import { useLiveInterval } from '../../lib/use-connection';
import { RefreshButton } from '../../components/ui/refresh-button';
import { LoadError } from '../../components/ui/load-error';
import { LinkButton } from '../../components/ui/link-button';
import { useNow } from '../../lib/use-now';

const route = getRouteApi('/app/servers');
const SKELETON_CARDS = 12;

/** SPEC §2 Servers List. */
export function ServersPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const runner = useCommandRunner();
  const now = useNow(30_000);
  const view = useListView(search.view, 'cards');
  // Live figures: refetch as often as the servers are scraped (at least every 5 s), while the tab is visible.
  const monitoring = useQuery(monitoringConfigQueryOptions());
  const refetchMs = Math.max(5, monitoring.data?.result.scrapeIntervalSeconds ?? 15) * 1000;
  const query = useQuery({ ...serverMetricsListQueryOptions(serversListQuery(search)), placeholderData: keepPreviousData, refetchInterval: useLiveInterval(refetchMs) });
  const canWrite = runner.check('server.create');
  const [deleting, setDeleting] = useState<Server | null>(null);

  const setSearch = useCallback(
    (patch: Partial<ServersSearch>, resetPage = true) => void navigate({ search: (prev) => ({ ...prev, ...patch, ...(resetPage ? { page: 1 } : {}) }), replace: true }),
    [navigate],
  );
  // The list's controls run the list commands (issue 13), as the palette and the command line do.
  const { run } = runner;
  const setHostname = useCallback((v: string) => void run('list.search', { text: v }), [run]);
  const sortBy = useCallback((by: ServerSortField) => void run('list.sort', { by }), [run]);
  const editSettings = useCallback((s: Server) => void navigate({ to: '/servers/edit/$id', params: { id: s._id }, search: (prev) => prev }), [navigate]);

  // SPEC §2: cards are de-duplicated by _id (a server can move between pages while paging).
  const servers = useMemo(() => {
    const seen = new Map<string, Server>();
    for (const s of query.data?.result.data ?? []) if (!seen.has(s._id)) seen.set(s._id, s);
    return [...seen.values()];
  }, [query.data]);
  const total = query.data?.result.count ?? 0;
  const estimated = query.data?.result.countEstimated === true;
  const loading = query.isPending;
  const markable = useMemo(() => servers.map((s) => ({ id: s._id, label: s.hostname })), [servers]);
  const markCard = useMarkableRows('server', markable, { open: (id) => void navigate({ to: '/servers/show/$id', params: { id } }) });
  const filtered = !!search.hostname?.trim();

  const cardActions = (s: Server): MenuAction[] => [
    { id: 'show', label: 'Show', onAction: () => void navigate({ to: '/servers/show/$id', params: { id: s._id } }) },
    { id: 'settings', label: 'Settings', isDisabled: canWrite !== true, onAction: () => editSettings(s) },
    { id: 'delete', label: 'Delete', danger: true, isDisabled: canWrite !== true, onAction: () => setDeleting(s) },
  ];

  const empty = filtered ? (
    <div className="col-span-full flex flex-col items-center gap-3 p-10 text-center">
      <p className="text-sm text-slate-600 dark:text-slate-400">No servers match “{search.hostname}”.</p>
      <Button onPress={() => setHostname('')}>Clear search</Button>
    </div>
  ) : (
    <div className="col-span-full flex flex-col items-center gap-3 p-10 text-center">
      <h2 className="text-lg font-semibold">No servers yet</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">Register a Linux or Windows server, then install its monitoring agent.</p>
      {canWrite === true && (
        <LinkButton to="/servers/create" search={true}>
          Add server
        </LinkButton>
      )}
    </div>
  );

  const failedWithoutData = query.isError && !query.data;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-semibold">Servers List</h1>
        <SearchField aria-label="Search by Hostname" placeholder="Search by Hostname" value={search.hostname ?? ''} onChange={setHostname} className="w-56" />
        <ViewSwitch value={view} onChange={(v) => void run(v === 'table' ? 'view.table' : 'view.cards', {})} />
        {/* Disabled only while a refresh someone asked for runs: the background refetch must not make the button flicker. */}
        <RefreshButton command="server.refresh" input={{}} spinning={query.isFetching} isDisabled={loading} />
        <LinkButton to="/servers/create" search={true} disabledReason={canWrite !== true && canWrite}>
          Add server
        </LinkButton>
      </div>
      <MonitoringBanner />

      {query.isError && (
        <LoadError title="Could not load servers." detail={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      )}

      {failedWithoutData ? null : view === 'table' ? (
        <ServersTable
          servers={servers}
          loading={loading}
          search={search}
          onSort={sortBy}
          onHostnameFilter={setHostname}
          canWrite={canWrite}
          onEditSettings={editSettings}
          onDelete={setDeleting}
          empty={empty}
        />
      ) : (
        // SPEC §2: 1 column on small and extra-small screens, 2 on medium and large, 3 on extra-large.
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3" aria-busy={loading || undefined}>
          {loading ? Array.from({ length: SKELETON_CARDS }, (_, i) => <ServerCardSkeleton key={i} />) : servers.map((s) => <ServerCard key={s._id} server={s} now={now} actions={cardActions(s)} mark={markCard({ id: s._id, label: s.hostname })} />)}
          {!loading && servers.length === 0 && empty}
        </div>
      )}

      {!failedWithoutData && (
        // Deleting the last server of the last page leaves an empty page: it steps back to one that has rows.
        <ListPagination
          page={search.page}
          pageSize={search.pageSize}
          total={total}
          estimated={estimated}
          onPage={(page) => setSearch({ page }, false)}
          emptyPage={{ rows: servers.length, settled: !query.isFetching && query.isSuccess }}
        />
      )}
      <DeleteServerDialog server={deleting} onClose={() => setDeleting(null)} />
      <Outlet />
    </div>
  );
}
