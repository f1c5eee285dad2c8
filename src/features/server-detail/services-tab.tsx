import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { ListQuery } from '../../../server/contract/common';
import type { Server } from '../../../server/contract/servers';
import { servicesQueryOptions } from '../../api/servers';
import { cx } from '../../components/ui/cx';
import { Pagination } from '../../components/ui/pagination';
import { SearchField } from '../../components/ui/search-field';
import { Segmented } from '../../components/ui/segmented';
import { Skeleton } from '../../components/ui/skeleton';
import type { ServerView, ServicePageSize, ServiceStatusFilter } from '../../lib/server-view';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { Card } from './states';
import { RefreshButton } from '../../components/ui/refresh-button';
import { LoadError } from '../../components/ui/load-error';

const route = getRouteApi('/app/servers/show/$id');

const statusOptions = [
  { value: 'all', label: 'All' },
  { value: 'up', label: 'Active' },
  { value: 'down', label: 'Down' },
] as const;

/** SPEC §7 prometheus/get-services: this server's services, name contains, status equals, newest first. */
export function servicesListQuery(serverId: string, view: Pick<ServerView, 'q' | 'status' | 'page' | 'pageSize'>): ListQuery {
  const name = view.q.trim();
  return {
    pageNumber: view.page,
    pageSize: view.pageSize,
    sort: { by: 'createdAt', direction: 'desc' },
    filter: {
      serverId: { eq: serverId },
      ...(name ? { name: { contains: name } } : {}),
      ...(view.status !== 'all' ? { status: { eq: view.status } } : {}),
    },
  };
}

/** SPEC §2 status display: up green 'Active', down red 'Down', anything else orange as written. */
function ServiceStatus({ status }: { status: string }) {
  const [label, tone] = status === 'up' ? ['Active', 'text-green-700 dark:text-green-400'] : status === 'down' ? ['Down', 'text-red-600 dark:text-red-400'] : [status, 'text-orange-700 dark:text-orange-400'];
  const dot = status === 'up' ? 'bg-green-500' : status === 'down' ? 'bg-red-500' : 'bg-orange-500';
  return (
    <span className={cx('inline-flex items-center gap-1.5 font-medium', tone)}>
      <span aria-hidden className={cx('h-2 w-2 rounded-full', dot)} />
      {label}
    </span>
  );
}

/** SPEC §2 Services tab: 'Services List', name search (500 ms), status filter, refresh, pages of 25. */
export function ServicesTab({ server, view }: { server: Server; view: ServerView }) {
  const { run } = useCommandRunner();
  const navigate = route.useNavigate();
  const query = useQuery({ ...servicesQueryOptions(servicesListQuery(server._id, view)), placeholderData: keepPreviousData });
  const rows = query.data?.result.data ?? [];
  const total = query.data?.result.count ?? 0;
  const estimated = query.data?.result.countEstimated === true;
  const filtered = view.q.trim() !== '' || view.status !== 'all';
  const searchName = useCallback((name: string) => void run('server.services-filter', { name }), [run]);

  return (
    <Card
      title="Services List"
      actions={
        <>
          <SearchField aria-label="Search by name" placeholder="Search by name" value={view.q} onChange={searchName} className="w-56" />
          <Segmented<ServiceStatusFilter> aria-label="Status" size="sm" options={statusOptions} value={view.status} onChange={(status) => void run('server.services-filter', { status })} />
          <RefreshButton command="server.refresh-view" input={{}} size="sm" aria-label="Refresh services" spinning={query.isFetching} isDisabled={query.isFetching} />
        </>
      }
    >
      {query.isError && (
        <div className="mb-3">
          <LoadError compact title="Could not load the services." detail={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />
        </div>
      )}
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-busy={query.isFetching || undefined}>
          <caption className="sr-only">Services of {server.hostname}</caption>
          <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase dark:border-slate-700 dark:text-slate-400">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">Hostname</th>
              <th scope="col" className="px-3 py-2 font-semibold">IP Address</th>
              <th scope="col" className="px-3 py-2 font-semibold">Service</th>
              <th scope="col" className="px-3 py-2 font-semibold">Status</th>
            </tr>
          </thead>
          <tbody>
            {query.isPending
              ? Array.from({ length: 5 }, (_, i) => (
                  <tr key={i}>
                    {Array.from({ length: 4 }, (_, j) => (
                      <td key={j} className="px-3 py-2.5">
                        <Skeleton className="h-4 w-28" />
                      </td>
                    ))}
                  </tr>
                ))
              : rows.map((s) => (
                  <tr key={s._id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                    <td className="px-3 py-2">{s.server.hostname}</td>
                    <td className="px-3 py-2 font-mono text-xs">{s.server.ipaddress}</td>
                    <td className="px-3 py-2">{s.service_name}</td>
                    <td className="px-3 py-2">
                      <ServiceStatus status={s.status} />
                    </td>
                  </tr>
                ))}
          </tbody>
        </table>
        {!query.isPending && rows.length === 0 && !query.isError && (
          <div className="flex flex-col items-center gap-3 p-8 text-center text-sm text-slate-600 dark:text-slate-400">
            {filtered ? (
              <>
                <p>No services match these filters.</p>
                <CommandButton command="server.services-filter" input={{}} size="sm">
                  Clear filters
                </CommandButton>
              </>
            ) : (
              <p>No services reported yet. Linux agents report services with node_exporter’s systemd collector; Windows agents always do.</p>
            )}
          </div>
        )}
      </div>
      {total > 0 && (
        <div className="mt-3">
          <Pagination
            page={view.page}
            pageSize={view.pageSize}
            total={total}
            estimated={estimated}
            // Paging is not a command (nothing to record, nothing to replay): the URL only.
            onChange={(page, pageSize) => void navigate({ search: (prev) => ({ ...prev, tab: 'services', page: page > 1 ? page : undefined, pageSize: pageSize === 25 ? undefined : (pageSize as ServicePageSize) }), replace: true })}
          />
        </div>
      )}
    </Card>
  );
}
