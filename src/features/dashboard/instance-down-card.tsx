import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useCallback, type MouseEvent } from 'react';
import { alertStatusLabels, alertTypeLabel, type Alert } from '../../../server/contract/alerts';
import { alertsListQueryOptions } from '../../api/alerts';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { AlertText } from '../../lib/alert-text';
import { Pagination } from '../../components/ui/pagination';
import { SearchField } from '../../components/ui/search-field';
import { instanceDownPageSizes, instanceDownQuery, type DashboardSearch } from '../../lib/dashboard-view';
import { CardEmpty, CardError, CardSkeleton, DashboardCard } from './dashboard-card';
import { useCardCommands } from './use-card';

const route = getRouteApi('/app/');

const linkButton =
  'inline-flex h-8 items-center rounded-md px-2.5 text-sm font-medium text-blue-700 outline-none hover:bg-blue-50 focus-visible:ring-2 focus-visible:ring-blue-500 dark:text-blue-400 dark:hover:bg-slate-800';

// The alerts screen (issue 4) owns /notifications/show/$id; its route is declared in another
// module, so the link is a plain href followed through the router's history.
const alertHref = (id: string) => `/notifications/show/${encodeURIComponent(id)}`;

function StatusText({ status }: { status: Alert['status'] }) {
  // SPEC §2: green 'Resolved' or red 'Active' (snoozed, never listed here, keeps its label).
  const tone = status === 'resolved' ? 'text-green-700 dark:text-green-400' : status === 'firing' ? 'text-red-600 dark:text-red-400' : 'text-orange-700 dark:text-orange-400';
  return <span className={`font-medium ${tone}`}>{alertStatusLabels[status]}</span>;
}

export function InstanceDownCard() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { refresh, runner } = useCardCommands();
  const q = useQuery({ ...alertsListQueryOptions(instanceDownQuery(search)), placeholderData: keepPreviousData });
  const page = search.page ?? 1;
  const pageSize = search.pageSize ?? 25;
  const canDelete = runner.check('alert.delete');
  const router = useRouter();
  const openAlert = (e: MouseEvent, id: string) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    router.history.push(alertHref(id));
  };

  const setSearch = useCallback((patch: Partial<DashboardSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }), [navigate]);
  const setHost = useCallback((v: string) => setSearch({ host: v || undefined, page: undefined }), [setSearch]);

  // The delete command (the alerts screen's, issue 4) asks 'Delete the alert?' itself and
  // refreshes what an alert change makes stale, the Alerts Summary included.
  const remove = (a: Alert) => void runner.run('alert.delete', { alert: a._id });

  const rows = q.data?.result.data ?? [];
  const total = q.data?.result.count ?? 0;
  return (
    <DashboardCard title="Instance Down" span={24} busy={q.isFetching} onRefresh={() => refresh('instance-down')}>
      {q.isError && <CardError error={q.error} />}
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="w-full text-left text-sm" aria-label="Instance Down">
          <thead className="bg-slate-50 align-top dark:bg-slate-800/60">
            <tr>
              <th scope="col" className="px-2 py-2 pl-3 font-semibold">
                Hostname
                <SearchField aria-label="Filter Hostname" placeholder="Search Hostname" value={search.host ?? ''} onChange={setHost} className="mt-1 w-36 font-normal" />
              </th>
              {['IP Address', 'Alert status', 'Alertname', 'Description', 'Type', 'Severity', 'Triggered At', 'Actions'].map((h) => (
                <th key={h} scope="col" className="px-2 py-2 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr key={a._id} className="border-t border-slate-100 align-top dark:border-slate-800">
                <td className="px-2 py-2 pl-3 font-medium">{a.hostname}</td>
                <td className="px-2 py-2">
                  <span className="inline-flex items-center gap-1 font-mono whitespace-nowrap">
                    {a.instance}
                    <CopyButton value={a.instance} label={`IP Address ${a.instance}`} />
                  </span>
                </td>
                <td className="px-2 py-2">
                  <StatusText status={a.status} />
                </td>
                <td className="px-2 py-2">{a.alertname}</td>
                <td className="max-w-72 px-2 py-2 text-slate-700 dark:text-slate-300">
                  <AlertText className="line-clamp-2" markdown={a.description} />
                </td>
                <td className="px-2 py-2 whitespace-nowrap">{alertTypeLabel(a.type)}</td>
                <td className={a.severity === 'critical' ? 'px-2 py-2 font-medium text-red-600 dark:text-red-400' : 'px-2 py-2'}>{a.severity}</td>
                <td className="px-2 py-2 whitespace-nowrap tabular-nums">
                  <time dateTime={a.createdAt}>{new Date(a.createdAt).toLocaleString()}</time>
                </td>
                <td className="px-2 py-2">
                  <div className="flex items-center gap-1">
                    <a href={alertHref(a._id)} onClick={(e) => openAlert(e, a._id)} className={linkButton} aria-label={`Show alert ${a.alertname} on ${a.hostname}`}>
                      Show
                    </a>
                    <Button variant="danger-ghost" size="sm" disabledReason={canDelete === true ? false : canDelete} onPress={() => remove(a)} aria-label={`Delete alert ${a.alertname} on ${a.hostname}`}>
                      Delete
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
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
