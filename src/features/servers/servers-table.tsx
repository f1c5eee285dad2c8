import { Link, useNavigate } from '@tanstack/react-router';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
import type { Server } from '../../../server/contract/servers';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { useCommandRunner } from '../../app/command-host/run-command';
import { CopyButton } from '../../components/ui/copy-button';
import { Hostname } from '../../lib/alert-display';
import { SearchField } from '../../components/ui/search-field';
import { formatByteRate } from '../../lib/format';
import { StateBadge, UsageText } from './server-display';
import type { ServerSortField, ServersSearch } from './servers-search';
import { SortHeader } from '../../components/ui/sort-header';
import { LinkButton } from '../../components/ui/link-button';

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

/** SPEC §2 table: Hostname (searchable), IP Address (copyable), State, CPU, Memory, Disk, Network, Actions. */
/** Servers are marked by hostname (Space on a row; commands then apply to every marked server). */
const serverMarks = { kind: 'server', label: (s: Server) => s.hostname };

export function ServersTable({ servers, loading, search, onSort, onHostnameFilter, canWrite, onEditSettings, onDelete, empty }: ServersTableProps) {
  const navigate = useNavigate();
  const { run } = useCommandRunner();

  const sortHeader = (label: string, by: ServerSortField) => <SortHeader label={label} by={by} sort={{ by: search.sortBy, dir: search.sortDir }} onSort={onSort} />;

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
            <Hostname name={row.original.hostname} />
          </Link>
        ),
      },
      {
        id: 'ipaddress',
        header: () => sortHeader('IP Address', 'ipaddress'),
        cell: ({ row }) => (
          <span className="inline-flex items-center gap-1 font-mono whitespace-nowrap">
            {row.original.ipaddress}
            <CopyButton value={row.original.ipaddress} label={`IP Address ${row.original.ipaddress}`} onCopy={() => run('server.copy-ip', { server: row.original._id }).then((r) => r !== null)} />
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
            <div className="flex items-center gap-1 whitespace-nowrap">
              {/* SPEC §2: Edit opens the server detail. */}
              <LinkButton variant="link" to="/servers/show/$id" params={{ id: s._id }} aria-label={`Edit ${s.hostname}`}>
                Edit
              </LinkButton>
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
    [search, canWrite, onHostnameFilter, run],
  );
  const table = useTable({ features, columns, data: servers, getRowId: (s) => s._id });

  return (
    <DataTable
      table={table}
      label="Servers"
      loading={loading}
      marks={serverMarks}
      sort={{ by: search.sortBy, dir: search.sortDir }}
      // Click-through: a click anywhere on a row that is not on a control opens the detail.
      onRowClick={(s) => void navigate({ to: '/servers/show/$id', params: { id: s._id } })}
      empty={empty}
    />
  );
}
