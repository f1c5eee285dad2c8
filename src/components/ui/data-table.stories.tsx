import type { Story } from '@ladle/react';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { DataTable } from './data-table';

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
