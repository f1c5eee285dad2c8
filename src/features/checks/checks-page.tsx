import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, Outlet, useNavigate } from '@tanstack/react-router';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo } from 'react';
import { checkKindLabels, type Check } from '../../../server/contract/checks';
import { checksListQueryOptions } from '../../api/checks';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { ListPagination } from '../../components/ui/list-pagination';
import { SearchField } from '../../components/ui/search-field';
import { Segmented } from '../../components/ui/segmented';
import { formatCertDays, formatLatency } from '../../lib/check-format';
import { formatRelativeTime } from '../../lib/format';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { CheckStateBadge, UptimeText } from './check-display';
import { checksListQuery, type CheckSortField, type ChecksSearch } from './checks-search';
import { SortHeader } from '../../components/ui/sort-header';
import { useLiveInterval } from '../../lib/use-connection';
import { RefreshButton } from '../../components/ui/refresh-button';
import { LoadError } from '../../components/ui/load-error';
import { LinkButton } from '../../components/ui/link-button';
import { useNow } from '../../lib/use-now';

const route = getRouteApi('/app/checks');
const features = tableFeatures({});
const REFETCH_MS = 10_000;
/** Checks are marked by name (Space on a row; check.pause, check.run-now … then apply to every marked check). */
const checkMarks = { kind: 'check', label: (c: Check) => c.name };

const stateOptions = [
  { value: 'all', label: 'All' },
  { value: 'up', label: 'Up' },
  { value: 'down', label: 'Down' },
  { value: 'paused', label: 'Paused' },
] as const;

/** Checks list (issue 16), in the servers list's style: URL state, search, sort, page, refresh, actions as commands. */
export function ChecksPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const goTo = useNavigate();
  const runner = useCommandRunner();
  const now = useNow(30_000);
  const query = useQuery({ ...checksListQueryOptions(checksListQuery(search)), placeholderData: keepPreviousData, refetchInterval: useLiveInterval(REFETCH_MS) });
  const canWrite = runner.check('check.create');

  const setSearch = useCallback(
    (patch: Partial<ChecksSearch>, resetPage = true) => void navigate({ search: (prev) => ({ ...prev, ...patch, ...(resetPage ? { page: 1 } : {}) }), replace: true }),
    [navigate],
  );
  // The list's controls run the list commands (issue 13), as the palette and the command line do.
  const sortBy = (by: CheckSortField) => void runner.run('list.sort', { by });

  const checks = query.data?.result.data ?? [];
  const total = query.data?.result.count ?? 0;
  const estimated = query.data?.result.countEstimated === true;
  const filtered = !!search.q?.trim() || !!search.state;

  const sortHeader = (label: string, by: CheckSortField) => <SortHeader label={label} by={by} sort={{ by: search.sortBy, dir: search.sortDir }} onSort={sortBy} />;

  const columns = useMemo<ColumnDef<typeof features, Check>[]>(
    () => [
      {
        id: 'name',
        header: () => sortHeader('Name', 'name'),
        cell: ({ row }) => (
          <div className="min-w-0">
            <Link to="/checks/show/$id" params={{ id: row.original._id }} className="font-medium text-blue-700 hover:underline dark:text-blue-400">
              {row.original.name}
            </Link>
            <div className="w-0 min-w-full truncate font-mono text-xs text-slate-500 dark:text-slate-400" title={row.original.target}>
              {row.original.target}
            </div>
          </div>
        ),
      },
      { id: 'kind', header: () => sortHeader('Kind', 'kind'), cell: ({ row }) => <span className="whitespace-nowrap">{checkKindLabels[row.original.kind]}</span> },
      { id: 'state', header: () => sortHeader('State', 'state'), cell: ({ row }) => <CheckStateBadge check={row.original} /> },
      { id: 'latency', header: () => sortHeader('Response time', 'latencyMs'), cell: ({ row }) => <span className="tabular-nums whitespace-nowrap">{formatLatency(row.original.latencyMs)}</span> },
      { id: 'uptime', header: () => <span className="font-semibold">Uptime (24 h)</span>, cell: ({ row }) => <UptimeText value={row.original.uptime24h} /> },
      {
        id: 'checked',
        header: () => sortHeader('Last checked', 'lastCheckedAt'),
        cell: ({ row }) => (
          <span className="whitespace-nowrap" title={row.original.lastError ?? undefined}>
            {formatRelativeTime(row.original.lastCheckedAt, now)}
          </span>
        ),
      },
      { id: 'cert', header: () => sortHeader('Certificate', 'certExpiresAt'), cell: ({ row }) => <span className="whitespace-nowrap">{formatCertDays(row.original.certDaysLeft)}</span> },
      {
        id: 'actions',
        header: () => <span className="font-semibold">Actions</span>,
        cell: ({ row }) => {
          const c = row.original;
          // Each button asks the command it runs (or, for Edit, the one its drawer saves with).
          const canEdit = runner.check('check.edit');
          return (
            <div className="flex items-center gap-1 whitespace-nowrap">
              <CommandButton command="check.run-now" input={{ check: c._id }} variant="ghost" size="sm" aria-label={`Run now: ${c.name}`}>
                Run now
              </CommandButton>
              <CommandButton command={c.paused ? 'check.resume' : 'check.pause'} input={{ check: c._id }} variant="ghost" size="sm" aria-label={`${c.paused ? 'Resume' : 'Pause'} ${c.name}`}>
                {c.paused ? 'Resume' : 'Pause'}
              </CommandButton>
              <Button variant="ghost" size="sm" disabledReason={canEdit === true ? false : canEdit} onPress={() => void navigate({ to: '/checks/edit/$id', params: { id: c._id }, search: (prev) => prev })} aria-label={`Edit ${c.name}`}>
                Edit
              </Button>
              <CommandButton command="check.delete" input={{ check: c._id }} variant="danger-ghost" size="sm" aria-label={`Delete ${c.name}`}>
                Delete
              </CommandButton>
            </div>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [search, runner, now],
  );
  const table = useTable({ features, columns, data: checks, getRowId: (c) => c._id });

  const empty = filtered ? (
    <div className="flex flex-col items-center gap-3 p-10 text-center">
      <p className="text-sm text-slate-600 dark:text-slate-400">No checks match.</p>
      <CommandButton command="list.clear-filters" input={{}}>
        Clear filters
      </CommandButton>
    </div>
  ) : (
    <div className="flex flex-col items-center gap-3 p-10 text-center">
      <h2 className="text-lg font-semibold">No checks yet</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">Watch a website, a TCP port, a DNS name or a TLS certificate from Opsdeck.</p>
      {canWrite === true && (
        <LinkButton to="/checks/create" search={true}>
          Add check
        </LinkButton>
      )}
    </div>
  );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-semibold">Checks</h1>
        <SearchField aria-label="Search by name or target" placeholder="Search by name or target" value={search.q ?? ''} onChange={(v) => void runner.run('list.search', { text: v })} className="w-60" />
        <Segmented
          aria-label="State"
          options={stateOptions}
          value={search.state ?? 'all'}
          onChange={(v) => void runner.run('list.filter', { field: 'state', ...(v === 'all' ? {} : { value: v }) })}
        />
        <RefreshButton command="check.refresh" input={{}} spinning={query.isFetching} isDisabled={query.isPending} />
        <LinkButton to="/checks/create" search={true} disabledReason={canWrite !== true && canWrite}>
          Add check
        </LinkButton>
      </div>
      {query.isError && (
        <LoadError title="Could not load checks." detail={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      )}
      <DataTable
        table={table}
        label="Checks"
        loading={query.isPending}
        sort={{ by: search.sortBy, dir: search.sortDir }}
        onRowClick={(c) => void goTo({ to: '/checks/show/$id', params: { id: c._id } })}
        empty={empty}
        marks={checkMarks}
        stackOnPhone={{ kind: 'Kind', state: 'State', latency: 'Response time', uptime: 'Uptime (24 h)', checked: 'Last checked', cert: 'Certificate' }}
      />
      <ListPagination page={search.page} pageSize={search.pageSize} total={total} estimated={estimated} onPage={(page) => setSearch({ page }, false)} />
      <Outlet />
    </div>
  );
}
