import { Link, useNavigate } from '@tanstack/react-router';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useMemo, type MouseEvent, type ReactNode } from 'react';
import type { Server } from '../../../server/contract/servers';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { SearchField } from '../../components/ui/search-field';
import { Skeleton } from '../../components/ui/skeleton';
import { formatByteRate } from '../../lib/format';
import { StateBadge, UsageText } from './server-display';
import type { ServerSortField, ServersSearch } from './servers-search';

const features = tableFeatures({});

export interface ServersTableProps {
  servers: Server[];
  loading: boolean;
  search: ServersSearch;
  onSort: (by: ServerSortField) => void;
  onHostnameFilter: (hostname: string) => void;
  /** true, or why the person may not change servers. */
  canWrite: true | string;
  onEditSettings: (server: Server) => void;
  onDelete: (server: Server) => void;
  empty: ReactNode;
}

const linkButton =
  'inline-flex h-8 items-center rounded-md px-2.5 text-sm font-medium text-blue-700 outline-none hover:bg-blue-50 focus-visible:ring-2 focus-visible:ring-blue-500 dark:text-blue-400 dark:hover:bg-slate-800';

/** SPEC §2 table: Hostname (searchable), IP Address (copyable), State, CPU, Memory, Disk, Network, Actions. */
export function ServersTable({ servers, loading, search, onSort, onHostnameFilter, canWrite, onEditSettings, onDelete, empty }: ServersTableProps) {
  const navigate = useNavigate();

  const sortHeader = (label: string, by: ServerSortField) => {
    const active = search.sortBy === by;
    return (
      <button
        type="button"
        className="inline-flex items-center gap-1 text-left font-semibold outline-none focus-visible:ring-2 focus-visible:ring-blue-500"
        onClick={() => onSort(by)}
        aria-label={`Sort by ${label}`}
      >
        {label}
        <span aria-hidden className="text-xs text-slate-400">
          {active ? (search.sortDir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    );
  };

  const columns = useMemo<ColumnDef<typeof features, Server>[]>(
    () => [
      {
        id: 'hostname',
        header: () => (
          <>
            {sortHeader('Hostname', 'hostname')}
            <SearchField aria-label="Filter Hostname" placeholder="Search Hostname" value={search.hostname ?? ''} onChange={onHostnameFilter} className="mt-1 w-36 font-normal" />
          </>
        ),
        cell: ({ row }) => (
          <Link to="/servers/show/$id" params={{ id: row.original._id }} className="font-medium text-blue-700 hover:underline dark:text-blue-400">
            {row.original.hostname}
          </Link>
        ),
      },
      {
        id: 'ipaddress',
        header: () => sortHeader('IP Address', 'ipaddress'),
        cell: ({ row }) => (
          <span className="inline-flex items-center gap-1 font-mono whitespace-nowrap">
            {row.original.ipaddress}
            <CopyButton value={row.original.ipaddress} label={`IP Address ${row.original.ipaddress}`} />
          </span>
        ),
      },
      { id: 'state', header: () => sortHeader('State', 'state'), cell: ({ row }) => <StateBadge state={row.original.state} /> },
      { id: 'cpuUsage', header: () => sortHeader('CPU Usage', 'cpuUsage'), cell: ({ row }) => <UsageText value={row.original.cpuUsage} /> },
      { id: 'memoryUsage', header: () => sortHeader('Memory Usage', 'memoryUsage'), cell: ({ row }) => <UsageText value={row.original.memoryUsage} /> },
      { id: 'diskUsage', header: () => sortHeader('Disk Usage', 'diskUsage'), cell: ({ row }) => <UsageText value={row.original.diskUsage} /> },
      {
        id: 'networkUsage',
        header: () => sortHeader('Network Usage', 'networkUsage'),
        cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{formatByteRate(row.original.networkUsage)}</span>,
      },
      {
        id: 'actions',
        header: () => <span className="font-semibold">Actions</span>,
        cell: ({ row }) => {
          const s = row.original;
          return (
            <div className="flex items-center gap-1">
              {/* SPEC §2: Edit opens the server detail. */}
              <Link to="/servers/show/$id" params={{ id: s._id }} className={linkButton} aria-label={`Edit ${s.hostname}`}>
                Edit
              </Link>
              {canWrite === true && (
                <Button variant="ghost" size="sm" onPress={() => onEditSettings(s)} aria-label={`Settings of ${s.hostname}`}>
                  Settings
                </Button>
              )}
              <Button variant="danger-ghost" size="sm" disabledReason={canWrite === true ? false : canWrite} onPress={() => onDelete(s)} aria-label={`Delete ${s.hostname}`}>
                Delete
              </Button>
            </div>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [search, canWrite, onHostnameFilter],
  );
  const table = useTable({ features, columns, data: servers, getRowId: (s) => s._id });

  // Click-through: a click anywhere on a row that is not on a control opens the detail.
  const openRow = (e: MouseEvent, id: string) => {
    if ((e.target as HTMLElement).closest('a,button,input,[role="button"]')) return;
    void navigate({ to: '/servers/show/$id', params: { id } });
  };

  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
      <table className="w-full text-left text-sm" aria-label="Servers">
        <thead className="bg-slate-50 align-top dark:bg-slate-900">
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => (
                <th
                  key={h.id}
                  scope="col"
                  className="px-2 py-2 first:pl-3"
                  aria-sort={h.column.id === search.sortBy ? (search.sortDir === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {typeof h.column.columnDef.header === 'function' ? h.column.columnDef.header(h.getContext()) : null}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {loading
            ? Array.from({ length: 5 }, (_, i) => (
                <tr key={i} className="border-t border-slate-100 dark:border-slate-800">
                  {columns.map((c) => (
                    <td key={c.id} className="px-2 py-3 first:pl-3">
                      <Skeleton className="h-4 w-20" />
                    </td>
                  ))}
                </tr>
              ))
            : table.getRowModel().rows.map((row) => (
                <tr
                  key={row.id}
                  onClick={(e) => openRow(e, row.original._id)}
                  className="cursor-pointer border-t border-slate-100 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900"
                >
                  {row.getAllCells().map((cell) => (
                    <td key={cell.id} className="px-2 py-2 first:pl-3">
                      {typeof cell.column.columnDef.cell === 'function' ? cell.column.columnDef.cell(cell.getContext()) : null}
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
      {!loading && servers.length === 0 && empty}
    </div>
  );
}
