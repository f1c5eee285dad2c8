import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, Outlet } from '@tanstack/react-router';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo } from 'react';
import type { NotificationGroup } from '../../../server/contract/alerts';
import { notificationGroupsListQueryOptions } from '../../api/notification-groups';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { ListPagination } from '../../components/ui/list-pagination';
import { SearchField } from '../../components/ui/search-field';
import { Switch } from '../../components/ui/switch';
import { toast } from '../../components/ui/toast';
import { DateTime } from '../../lib/alert-display';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { EmailAvatars } from './email-avatars';
import { MonitoringAlertGroups } from './monitoring-alert-groups';
import { groupsListQuery, type GroupSortField, type GroupsSearch } from './groups-search';
import { SortHeader } from '../../components/ui/sort-header';
import { RefreshButton } from '../../components/ui/refresh-button';
import { LoadError } from '../../components/ui/load-error';
import { LinkButton } from '../../components/ui/link-button';

const route = getRouteApi('/app/notification-groups');
const features = tableFeatures({});

// Date over time, and headers that wrap: the table fits at 1280 px with its actions whole (issue 13).
const dateCell = (iso: string) => <DateTime value={iso} stacked />;

/** SPEC §2 Notification groups list. Actions run the group commands, so they land in the history. */
/** Groups are marked by name (Space on a row; commands then apply to every marked group). */
const groupMarks = { kind: 'group', label: (g: NotificationGroup) => g.name };

export function GroupsPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const runner = useCommandRunner();
  const query = useQuery({ ...notificationGroupsListQueryOptions(groupsListQuery(search)), placeholderData: keepPreviousData });
  const canCreate = runner.check('group.create');
  const canEdit = runner.check('group.edit');

  const setSearch = useCallback(
    (patch: Partial<GroupsSearch>, resetPage = true) => void navigate({ search: (prev) => ({ ...prev, ...patch, ...(resetPage ? { page: 1 } : {}) }), replace: true }),
    [navigate],
  );
  // The list's controls run the list commands (issue 13), as the palette and the command line do.
  const { run } = runner;
  const setName = useCallback((v: string) => void run('list.search', { text: v }), [run]);
  const sortBy = (by: GroupSortField) => void run('list.sort', { by });
  const edit = (g: NotificationGroup) => void navigate({ to: '/notification-groups/edit/$id', params: { id: g._id }, search: (prev) => prev });

  const groups = query.data?.result.data ?? [];
  const total = query.data?.result.count ?? 0;
  const estimated = query.data?.result.countEstimated === true;
  const loading = query.isPending;
  const filtered = !!search.name?.trim();

  const sortHeader = (label: string, by: GroupSortField) => <SortHeader label={label} by={by} sort={{ by: search.sortBy, dir: search.sortDir }} onSort={sortBy} />;
  const plainHeader = (label: string) => <span className="font-semibold">{label}</span>;

  const columns = useMemo<ColumnDef<typeof features, NotificationGroup>[]>(
    () => [
      {
        id: 'name',
        header: () => sortHeader('Name', 'name'),
        cell: ({ row }) => (
          <Link to="/notification-groups/show/$id" params={{ id: row.original._id }} search={true} className="font-medium text-blue-700 hover:underline dark:text-blue-400">
            {row.original.name}
          </Link>
        ),
      },
      {
        id: 'description',
        header: () => plainHeader('Description'),
        cell: ({ row }) => <span className="line-clamp-2 max-w-xs text-slate-700 dark:text-slate-300">{row.original.description || <span className="text-slate-500 dark:text-slate-400">--</span>}</span>,
      },
      {
        id: 'emailEnabled',
        header: () => plainHeader('Email Enabled'),
        // Read-only (SPEC §2): changing it is the Update drawer's job.
        cell: ({ row }) => <Switch isSelected={row.original.emailEnabled} isReadOnly aria-label={`Email enabled for ${row.original.name}`} />,
      },
      { id: 'emailList', header: () => plainHeader('Email List'), cell: ({ row }) => <EmailAvatars emails={row.original.emailList} /> },
      {
        id: 'slackEnabled',
        header: () => plainHeader('Slack Enabled'),
        cell: ({ row }) => (
          <span className="inline-flex items-center gap-2" title={row.original.slackChannel ?? undefined}>
            <Switch isSelected={row.original.slackEnabled} isReadOnly aria-label={`Slack enabled for ${row.original.name}`} />
          </span>
        ),
      },
      { id: 'createdAt', header: () => sortHeader('Created At', 'createdAt'), cell: ({ row }) => dateCell(row.original.createdAt) },
      { id: 'updatedAt', header: () => sortHeader('Updated At', 'updatedAt'), cell: ({ row }) => dateCell(row.original.updatedAt) },
      {
        id: 'actions',
        header: () => plainHeader('Actions'),
        cell: ({ row }) => {
          const g = row.original;
          return (
            <div className="flex items-center gap-1 whitespace-nowrap">
              <Button variant="ghost" size="sm" disabledReason={canEdit === true ? false : canEdit} onPress={() => edit(g)} aria-label={`Edit ${g.name}`}>
                Edit
              </Button>
              {/* group.delete asks SPEC's 'Delete Notification Group' and refreshes the list itself. */}
              <CommandButton command="group.delete" input={{ group: g._id }} variant="danger-ghost" size="sm" aria-label={`Delete ${g.name}`} onDone={() => toast('success', `Deleted notification group ${g.name}`)}>
                Delete
              </CommandButton>
            </div>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [search, canEdit],
  );
  const table = useTable({ features, columns, data: groups, getRowId: (g) => g._id });

  const empty = filtered ? (
    <div className="flex flex-col items-center gap-3 p-10 text-center">
      <p className="text-sm text-slate-600 dark:text-slate-400">No notification groups match “{search.name}”.</p>
      <Button onPress={() => setName('')}>Clear search</Button>
    </div>
  ) : (
    <div className="flex flex-col items-center gap-3 p-10 text-center">
      <h2 className="text-lg font-semibold">No notification groups yet</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">A group holds the email addresses and Slack channel that alert rules notify.</p>
      {canCreate === true && (
        <LinkButton to="/notification-groups/create" search={true}>
          Create Notification Group
        </LinkButton>
      )}
    </div>
  );
  const failedWithoutData = query.isError && !query.data;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-semibold">Notification Groups</h1>
        <SearchField aria-label="Search by name" placeholder="Search by name" value={search.name ?? ''} onChange={setName} className="w-56" />
        <RefreshButton command="group.refresh" input={{}} spinning={query.isFetching} isDisabled={loading} />
        <LinkButton to="/notification-groups/create" search={true} disabledReason={canCreate !== true && canCreate}>
          Create Notification Group
        </LinkButton>
      </div>
      <MonitoringAlertGroups />

      {query.isError && (
        <LoadError title="Could not load notification groups." detail={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      )}

      {!failedWithoutData && (
        <DataTable table={table} label="Notification Groups" loading={loading} sort={{ by: search.sortBy, dir: search.sortDir }} empty={empty} marks={groupMarks} />
      )}

      {!failedWithoutData && (
        // Deleting the last group of the last page leaves an empty page: it steps back to one with rows.
        <ListPagination
          page={search.page}
          pageSize={search.pageSize}
          total={total}
          estimated={estimated}
          onPage={(page) => setSearch({ page }, false)}
          emptyPage={{ rows: groups.length, settled: !query.isFetching && query.isSuccess }}
        />
      )}
      <Outlet />
    </div>
  );
}
