import type { Story } from '@ladle/react';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { DataTable } from './data-table';
import { SortHeader } from './sort-header';

const features = tableFeatures({});
type Host = { _id: string; hostname: string; state: string };
const columns: ColumnDef<typeof features, Host>[] = [
  { id: 'hostname', header: 'Hostname', cell: ({ row }) => row.original.hostname },
  { id: 'state', header: 'State', cell: ({ row }) => row.original.state },
];
const hosts: Host[] = [
  { _id: '1', hostname: 'web-01', state: 'up' },
  { _id: '2', hostname: 'db-01', state: 'down' },
];

function Example({ data, loading }: { data: Host[]; loading: boolean }) {
  const table = useTable({ features, columns, data, getRowId: (h) => h._id });
  return (
    <DataTable
      table={table}
      label="Servers"
      loading={loading}
      sort={{ by: 'hostname', dir: 'asc' }}
      onRowClick={(h) => alert(`Open ${h.hostname}`)}
      empty={<p className="p-6 text-center text-sm text-slate-500">No servers found</p>}
    />
  );
}

export const Rows: Story = () => <Example data={hosts} loading={false} />;
export const Loading: Story = () => <Example data={[]} loading />;
export const Empty: Story = () => <Example data={[]} loading={false} />;

/** Sortable headers (SortHeader): the arrow shows the sorted column and its direction; a press on the same column flips it. */
export const Sortable: Story = () => {
  const [sort, setSort] = useState<{ by: string; dir: 'asc' | 'desc' }>({ by: 'hostname', dir: 'asc' });
  const onSort = (by: string) => setSort((s) => ({ by, dir: s.by === by && s.dir === 'asc' ? 'desc' : 'asc' }));
  const sortable: ColumnDef<typeof features, Host>[] = [
    { id: 'hostname', header: () => <SortHeader label="Hostname" by="hostname" sort={sort} onSort={onSort} />, cell: ({ row }) => row.original.hostname },
    { id: 'state', header: () => <SortHeader label="State" by="state" sort={sort} onSort={onSort} />, cell: ({ row }) => row.original.state },
  ];
  const table = useTable({ features, columns: sortable, data: hosts, getRowId: (h) => h._id });
  return <DataTable table={table} label="Servers" loading={false} sort={sort} />;
};
