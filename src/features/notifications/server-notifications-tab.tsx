import { useCallback, useState } from 'react';
import type { Alert } from '../../../server/contract/alerts';
import type { Server } from '../../../server/contract/servers';
import { Pagination } from '../../components/ui/pagination';
import { AlertDrawer } from './alert-drawer';
import { AlertFilters } from './alert-filters';
import { AlertsTable } from './alerts-table';
import { EmptyAlerts } from './list-states';
import { hasFilters, type AlertListFilters } from './notifications-search';
import { useAlertList } from './use-alert-list';
import { LoadError } from '../../components/ui/load-error';

const initial: AlertListFilters = { page: 1, pageSize: 25, status: 'all' };

/**
 * SPEC §2 server detail, Notifications tab: this server's alerts with the same filters as the
 * Notifications page, as a table. The filters are the tab's own state (the detail's URL holds
 * its time range and the Services tab's filters), and View opens the alert drawer in place, so
 * the person stays on the server they are looking at (docs/decisions.md).
 */
export function ServerNotificationsTab({ server }: { server: Server }) {
  const [filters, setFilters] = useState<AlertListFilters>(initial);
  const [open, setOpen] = useState<string | null>(null);
  const list = useAlertList(filters, server._id);
  const change = useCallback((patch: Partial<AlertListFilters>) => setFilters((f) => ({ ...f, ...patch, page: 1 })), []);
  const view = useCallback((a: Alert) => setOpen(a._id), []);
  const { query } = list;

  return (
    <section aria-label="Notifications" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
      <h2 className="text-base font-semibold">Notifications</h2>
      <AlertFilters filters={filters} onChange={change} loading={list.query.isPending} />
      {query.isError && <LoadError title="Could not load alerts." detail={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />}
      {!(query.isError && !query.data) && (
        <>
          <AlertsTable
            label={`Alerts of ${server.hostname}`}
            alerts={list.alerts}
            loading={query.isPending}
            onView={view}
            onDelete={list.remove}
            canDelete={list.canDelete}
            onToggleAck={list.toggleAck}
            canAck={list.canAck}
            empty={<EmptyAlerts filtered={hasFilters(filters)} onClear={() => setFilters(initial)} />}
          />
          <Pagination page={filters.page} pageSize={filters.pageSize} total={list.total} onChange={(page, pageSize) => setFilters((f) => ({ ...f, page, pageSize }))} />
        </>
      )}
      {open && <AlertDrawer key={open} alertId={open} onClose={() => setOpen(null)} />}
    </section>
  );
}
