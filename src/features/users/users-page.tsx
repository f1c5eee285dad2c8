import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, Outlet } from '@tanstack/react-router';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo } from 'react';
import { useListView, ViewSwitch } from '../../components/ui/view-switch';
import { roleLabels } from '../../../server/contract/permissions';
import type { User } from '../../../server/contract/users';
import { usersListQueryOptions } from '../../api/users';
import { DataTable } from '../../components/ui/data-table';
import { Menu } from '../../components/ui/menu';
import { ListPagination } from '../../components/ui/list-pagination';
import { SearchField } from '../../components/ui/search-field';
import { Skeleton } from '../../components/ui/skeleton';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { markedRowClass, useMarkableRows } from '../../components/ui/marks';
import { cx } from '../../components/ui/cx';
import { usersListQuery, type UsersSearch } from './users-search';
import { SortHeader } from '../../components/ui/sort-header';
import { RefreshButton } from '../../components/ui/refresh-button';
import { LoadError } from '../../components/ui/load-error';
import { LinkButton } from '../../components/ui/link-button';

const route = getRouteApi('/app/users');
const features = tableFeatures({});

/** Users are marked by name (Space on a row; commands then apply to every marked user). */
const userMarks = { kind: 'user', label: (u: { username: string }) => u.username };

export function UsersPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const runner = useCommandRunner();
  const view = useListView(search.view, 'table');
  const query = useQuery({ ...usersListQueryOptions(usersListQuery(search)), placeholderData: keepPreviousData });
  const canCreate = runner.check('user.create');
  const canDelete = runner.check('user.delete');

  const setSearch = useCallback(
    (patch: Partial<UsersSearch>, resetPage = true) => void navigate({ search: (prev) => ({ ...prev, ...patch, ...(resetPage ? { page: 1 } : {}) }), replace: true }),
    [navigate],
  );
  const remove = (u: User) => void runner.run('user.delete', { user: u._id });
  // The list's controls run the list commands (issue 13), as the palette and the command line do.
  const { run } = runner;
  const sortBy = (by: UsersSearch['sortBy']) => void run('list.sort', { by });
  const filterBy = (field: 'username' | 'email' | 'role', value: string) => void run('list.filter', { field, value });

  const sortHeader = (label: string, by: UsersSearch['sortBy']) => <SortHeader label={label} by={by} sort={{ by: search.sortBy, dir: search.sortDir }} onSort={sortBy} />;
  const filterInput = (label: string, key: 'username' | 'email' | 'role') => (
    <SearchField aria-label={`Filter ${label}`} placeholder={`Search ${label}`} value={search[key] ?? ''} onChange={(v) => filterBy(key, v)} className="mt-1 w-40 font-normal" />
  );

  const columns = useMemo<ColumnDef<typeof features, User>[]>(
    () => [
      {
        id: 'username',
        header: () => (
          <>
            {sortHeader('Name', 'username')}
            {filterInput('Name', 'username')}
          </>
        ),
        cell: ({ row }) => (
          <Link to="/users/show/$id" params={{ id: row.original._id }} search={true} className="font-medium text-blue-600 hover:underline dark:text-blue-400">
            {row.original.username}
          </Link>
        ),
      },
      {
        id: 'email',
        header: () => (
          <>
            {sortHeader('Email', 'email')}
            {filterInput('Email', 'email')}
          </>
        ),
        cell: ({ row }) => row.original.email,
      },
      {
        id: 'role',
        header: () => (
          <>
            {sortHeader('Role', 'role')}
            {filterInput('Role', 'role')}
          </>
        ),
        cell: ({ row }) => roleLabels[row.original.role],
      },
      {
        id: 'actions',
        header: () => <span className="font-semibold">Actions</span>,
        cell: ({ row }) => (
          <div className="flex items-center gap-1 whitespace-nowrap">
            <Link to="/users/show/$id" params={{ id: row.original._id }} search={true} className="rounded px-2 py-1 text-sm text-blue-600 hover:bg-blue-50 dark:text-blue-400 dark:hover:bg-slate-800" aria-label={`Show ${row.original.username}`}>
              Show
            </Link>
            {row.original.phonenumber && (
              <a href={`tel:${row.original.phonenumber}`} className="rounded px-2 py-1 text-sm text-blue-600 hover:bg-blue-50 dark:text-blue-400 dark:hover:bg-slate-800" aria-label={`Call ${row.original.username}`}>
                Call
              </a>
            )}
            <CommandButton command="user.delete" input={{ user: row.original._id }} variant="danger-ghost" size="sm" aria-label={`Delete ${row.original.username}`}>
              Delete
            </CommandButton>
          </div>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [search],
  );
  const data = query.data?.result.data ?? [];
  const table = useTable({ features, columns, data, getRowId: (u) => u._id });
  const total = query.data?.result.count ?? 0;
  const estimated = query.data?.result.countEstimated === true;
  const markable = useMemo(() => data.map((u) => ({ id: u._id, label: userMarks.label(u) })), [data]);
  const markCard = useMarkableRows('user', markable, { open: (id) => void navigate({ to: '/users/show/$id', params: { id }, search: (s) => s }) });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-semibold">Users</h1>
        <SearchField aria-label="Search by name" placeholder="Search by name" value={search.search ?? ''} onChange={(v) => void run('list.search', { text: v })} className="w-56" />
        <ViewSwitch value={view} onChange={(v) => void run(v === 'table' ? 'view.table' : 'view.cards', {})} order={['table', 'cards']} />
        <RefreshButton command="user.refresh" input={{}} spinning={query.isFetching} isDisabled={query.isFetching} />
        <LinkButton to="/users/create" search={true} disabledReason={canCreate !== true && canCreate}>
          Add new user
        </LinkButton>
      </div>

      {query.isError && (
        <LoadError title="Could not load users:" detail={query.error.message} />
      )}

      {view === 'table' ? (
        <DataTable
          table={table}
          label="Users"
          loading={query.isPending}
          marks={userMarks}
          sort={{ by: search.sortBy, dir: search.sortDir }}
          empty={<p className="p-6 text-center text-sm text-slate-500 dark:text-slate-400">No users found</p>}
        />
      ) : (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4">
          {query.isPending
            ? Array.from({ length: 8 }, (_, i) => <Skeleton key={i} className="h-28" />)
            : data.map((u) => (
                <article key={u._id} {...markCard({ id: u._id, label: u.username })} className={cx('rounded-lg border border-slate-200 p-4 dark:border-slate-800', markedRowClass)}>
                  <div className="flex items-start justify-between gap-2">
                    <div className="min-w-0">
                      <h2 className="truncate font-semibold">{u.username}</h2>
                      <p className="truncate text-sm text-slate-500 dark:text-slate-400">{u.email}</p>
                    </div>
                    <Menu
                      label={`Actions for ${u.username}`}
                      actions={[
                        { id: 'show', label: 'Show', onAction: () => void navigate({ to: '/users/show/$id', params: { id: u._id }, search: (s) => s }) },
                        { id: 'delete', label: 'Delete', danger: true, isDisabled: canDelete !== true, onAction: () => remove(u) },
                      ]}
                    />
                  </div>
                  <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">{roleLabels[u.role]}</p>
                </article>
              ))}
          {!query.isPending && data.length === 0 && <p className="col-span-full p-6 text-center text-sm text-slate-500 dark:text-slate-400">No users found</p>}
        </div>
      )}

      <ListPagination page={search.page} pageSize={search.pageSize} total={total} estimated={estimated} onPage={(page) => setSearch({ page }, false)} />
      <Outlet />
    </div>
  );
}
