import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { alertTypeLabel, type Alert } from '../../../server/contract/alerts';
import { alertsListQueryOptions } from '../../api/alerts';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { AlertStatusBadge, alertName, DateTime, Hostname, SeverityText } from '../../lib/alert-display';
import { AlertText } from '../../lib/alert-text';
import { Pagination } from '../../components/ui/pagination';
import { SearchField } from '../../components/ui/search-field';
import { instanceDownPageSizes, instanceDownQuery, type DashboardSearch } from '../../lib/dashboard-view';
import { CardEmpty, CardError, CardSkeleton, DashboardCard } from './dashboard-card';
import { useCardCommands } from './use-card';
import { LinkButton } from '../../components/ui/link-button';

const route = getRouteApi('/app/');

export function InstanceDownCard() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { runner } = useCardCommands();
  const q = useQuery({ ...alertsListQueryOptions(instanceDownQuery(search)), placeholderData: keepPreviousData });
  const page = search.page ?? 1;
  const pageSize = search.pageSize ?? 25;
  const canDelete = runner.check('alert.delete');

  const setSearch = useCallback((patch: Partial<DashboardSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }), [navigate]);
  const setHost = useCallback((v: string) => setSearch({ host: v || undefined, page: undefined }), [setSearch]);

  // The delete command (the alerts screen's, issue 4) asks 'Delete the alert?' itself and
  // refreshes what an alert change makes stale, the Alerts Summary included.
  const remove = (a: Alert) => void runner.run('alert.delete', { alert: a._id });

  const rows = q.data?.result.data ?? [];
  const total = q.data?.result.count ?? 0;
  return (
    <DashboardCard title="Instance Down" span={24} busy={q.isFetching} card="instance-down">
      {q.isError && <CardError error={q.error} />}
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="w-full text-left text-sm" aria-label="Instance Down">
          <thead className="bg-slate-50 align-top dark:bg-slate-800/60">
            <tr>
              <th scope="col" className="px-1.5 py-2 pl-3 font-semibold">
                Hostname
                <SearchField aria-label="Filter Hostname" placeholder="Search Hostname" value={search.host ?? ''} onChange={setHost} className="mt-1 w-28 font-normal" />
              </th>
              {['IP Address', 'Alert status', 'Alertname', 'Description', 'Type', 'Severity', 'Triggered At', 'Actions'].map((h) => (
                <th key={h} scope="col" className="px-1.5 py-2 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => {
              // The words the Notifications screen uses for the same alert ("high disk usage on web-01").
              const name = `${alertName(a.alertname)} on ${a.hostname}`;
              return (
                <tr key={a._id} className="border-t border-slate-100 align-top dark:border-slate-800">
                  <td className="px-1.5 py-2 pl-3 font-medium">
                    <Hostname name={a.hostname} />
                  </td>
                  <td className="px-1.5 py-2">
                    <span className="inline-flex items-center gap-1 font-mono whitespace-nowrap">
                      {a.instance}
                      <CopyButton value={a.instance} label={`IP Address ${a.instance}`} />
                    </span>
                  </td>
                  <td className="px-1.5 py-2">
                    {/* SPEC §2: green 'Resolved' or red 'Active' (snoozed, never listed here, keeps its label). */}
                    <AlertStatusBadge status={a.status} />
                  </td>
                  <td className="px-1.5 py-2">{alertName(a.alertname)}</td>
                  <td className="max-w-72 px-1.5 py-2 text-slate-700 dark:text-slate-300">
                    <AlertText className="line-clamp-2" markdown={a.description} />
                  </td>
                  <td className="px-1.5 py-2">{alertTypeLabel(a.type)}</td>
                  <td className="px-1.5 py-2">
                    <SeverityText severity={a.severity} />
                  </td>
                  <td className="px-1.5 py-2">
                    <DateTime value={a.createdAt} stacked />
                  </td>
                  <td className="px-1.5 py-2">
                    <div className="flex items-center gap-1 whitespace-nowrap">
                      <LinkButton variant="link" to="/notifications/show/$id" params={{ id: a._id }} aria-label={`Show alert ${name}`}>
                        Show
                      </LinkButton>
                      <Button variant="danger-ghost" size="sm" disabledReason={canDelete === true ? false : canDelete} onPress={() => remove(a)} aria-label={`Delete alert ${name}`}>
                        Delete
                      </Button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {q.isPending && (
          <div className="p-3">
            <CardSkeleton rows={5} />
          </div>
        )}
        {!q.isPending && !q.isError && rows.length === 0 && <CardEmpty>{search.host ? `No firing alerts on hosts matching "${search.host}".` : 'No firing alerts.'}</CardEmpty>}
      </div>
      {total > 0 && (
        <Pagination page={page} pageSize={pageSize} total={total} pageSizes={instanceDownPageSizes} onChange={(p, size) => setSearch({ page: p === 1 ? undefined : p, pageSize: size === 25 ? undefined : (size as DashboardSearch['pageSize']) })} />
      )}
    </DashboardCard>
  );
}
