import { getRouteApi, Outlet } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { useListView, ViewSwitch, type ListView } from '../../components/ui/view-switch';
import type { Alert } from '../../../server/contract/alerts';
import { NotificationsTabs } from '../../components/ui/link-tabs';
import { ListPagination } from '../../components/ui/list-pagination';
import { EmptyAlerts } from './list-states';
import { AlertCard, AlertCardSkeleton } from './alert-card';
import { AlertFilters } from './alert-filters';
import { AlertsTable, alertMarks } from './alerts-table';
import { useMarkableRows } from '../../components/ui/marks';
import { useCommandRunner } from '../../app/command-host/run-command';
import { hasFilters, searchToFilters, type AlertListFilters, type NotificationsSearch } from './notifications-search';
import { useAlertList } from './use-alert-list';
import { LoadError } from '../../components/ui/load-error';

const route = getRouteApi('/app/notifications');
const SKELETON_CARDS = 12;

/** SPEC §2 Notifications: every alert, cards (default) or table, filtered by date range, status and hostname. */
export function NotificationsPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const view = useListView(search.view, 'cards');
  const filters = searchToFilters(search);
  const list = useAlertList(filters);
  const { query, alerts, total } = list;

  const setSearch = useCallback(
    (patch: Partial<NotificationsSearch>, resetPage = true) => void navigate({ search: (prev) => ({ ...prev, ...patch, ...(resetPage ? { page: 1 } : {}) }), replace: true }),
    [navigate],
  );
  // The filters and the view switch run the list commands (issue 13), as the palette and the command line do.
  const { run } = useCommandRunner();
  const setFilters = useCallback(
    (patch: Partial<AlertListFilters>) => {
      const input: { status?: AlertListFilters['status']; host?: string; from?: string; to?: string } = {};
      if ('hostname' in patch) input.host = patch.hostname ?? '';
      if ('status' in patch) input.status = patch.status;
      if ('from' in patch) input.from = patch.from ?? '';
      if ('to' in patch) input.to = patch.to ?? '';
      void run('alerts.filter', input);
    },
    [run],
  );
  // SPEC §2: switching between cards and table clears the filters (view.table / view.cards do).
  const setView = (v: ListView) => v !== view && void run(v === 'table' ? 'view.table' : 'view.cards', {});
  const openAlert = useCallback((a: Alert) => void navigate({ to: '/notifications/show/$id', params: { id: a._id }, search: (prev) => prev }), [navigate]);

  const filtered = hasFilters(filters);
  const empty = <EmptyAlerts filtered={filtered} onClear={() => void run('alerts.filter', {})} />;
  const failedWithoutData = query.isError && !query.data;
  const loading = query.isPending;
  const markable = useMemo(() => alerts.map((a) => ({ id: a._id, label: alertMarks.label(a) })), [alerts]);
  const markCard = useMarkableRows('alert', markable, { open: (id) => void navigate({ to: '/notifications/show/$id', params: { id }, search: (prev) => prev }) });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-semibold">Notifications</h1>
        <ViewSwitch value={view} onChange={setView} />
      </div>
      <NotificationsTabs current="alerts" />
      <AlertFilters filters={filters} onChange={setFilters} loading={list.query.isPending} />

      {query.isError && <LoadError title="Could not load alerts." detail={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />}

      {failedWithoutData ? null : view === 'table' ? (
        <AlertsTable label="Alerts" alerts={alerts} loading={loading} onView={openAlert} onDelete={list.remove} canDelete={list.canDelete} onToggleAck={list.toggleAck} canAck={list.canAck} empty={empty} />
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3" aria-busy={loading || undefined}>
          {loading ? Array.from({ length: SKELETON_CARDS }, (_, i) => <AlertCardSkeleton key={i} />) : alerts.map((a) => (
                <AlertCard
                  key={a._id}
                  alert={a}
                  onView={openAlert}
                  mark={markCard({ id: a._id, label: alertMarks.label(a) })}
                  extraActions={
                    a.status === 'resolved'
                      ? []
                      : [{ id: 'ack', label: a.acknowledgement ? 'Release acknowledgement' : 'Acknowledge', onAction: () => list.toggleAck(a), isDisabled: list.canAck(a) !== true }]
                  }
                />
              ))}
          {!loading && alerts.length === 0 && <div className="col-span-full">{empty}</div>}
        </div>
      )}

      {!failedWithoutData && (
        // Deleting the last alert of the last page leaves an empty page: it steps back to one that has rows.
        <ListPagination
          page={search.page}
          pageSize={search.pageSize}
          total={total}
          onPage={(page) => setSearch({ page }, false)}
          emptyPage={{ rows: alerts.length, settled: !query.isFetching && query.isSuccess }}
        />
      )}
      <Outlet />
    </div>
  );
}

