import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
import { alertTypeLabel, type Alert } from '../../../server/contract/alerts';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { DataTable } from '../../components/ui/data-table';
import { AlertText } from '../../lib/alert-text';
import { AlertStatusBadge, alertName, DateTime, Hostname, SeverityText } from '../../lib/alert-display';
import { AckLine, MuteLine } from './alert-display';

const features = tableFeatures({});

export interface AlertsTableProps {
  alerts: Alert[];
  loading: boolean;
  onView: (alert: Alert) => void;
  onDelete: (alert: Alert) => void;
  /** true, or why the person may not delete alerts. */
  canDelete: true | string;
  /** Issue 14: acknowledge an unowned open alert or release an owned one; absent: no button. */
  onToggleAck?: (alert: Alert) => void;
  /** Whether the alert's Ack or Release can run now (asked of the command it would run), or why not. */
  canAck?: (a: Alert) => true | string;
  empty: ReactNode;
  label: string;
}

/** SPEC §2: Hostname, IP Address (copyable), status, Alertname, Description, Type, severity, Triggered At, Actions (view, delete). */
/** Alerts are marked as "cpu on web-01" (Space on a row; commands then apply to every marked alert). */
export const alertMarks = { kind: 'alert', label: (a: Alert) => `${a.alertname.replace(/_/g, ' ')} on ${a.hostname}` };

const always = (): true => true;

export function AlertsTable({ alerts, loading, onView, onDelete, canDelete, onToggleAck, canAck = always, empty, label }: AlertsTableProps) {
  const columns = useMemo<ColumnDef<typeof features, Alert>[]>(
    () => [
      // Hostnames break after their dots, names and types wrap, dates stack: the table fits at 1280 px (issue 13).
      { id: 'hostname', header: 'Hostname', cell: ({ row }) => <Hostname name={row.original.hostname} className="font-medium" /> },
      {
        id: 'ipaddress',
        header: 'IP Address',
        cell: ({ row }) => (
          <span className="inline-flex items-center gap-1 font-mono whitespace-nowrap">
            {row.original.instance}
            <CopyButton value={row.original.instance} label={`IP Address ${row.original.instance}`} />
          </span>
        ),
      },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row }) => (
          <div className="flex flex-col gap-1">
            <AlertStatusBadge status={row.original.status} />
            <AckLine ack={row.original.acknowledgement} />
            <MuteLine mute={row.original.mute} status={row.original.status} />
          </div>
        ),
      },
      { id: 'alertname', header: 'Alertname', cell: ({ row }) => <span>{alertName(row.original.alertname)}</span> },
      { id: 'description', header: 'Description', cell: ({ row }) => <AlertText className="line-clamp-2 max-w-xs text-sm" markdown={row.original.description} /> },
      { id: 'type', header: 'Type', cell: ({ row }) => <span>{alertTypeLabel(row.original.type)}</span> },
      { id: 'severity', header: 'Severity', cell: ({ row }) => <SeverityText severity={row.original.severity} /> },
      { id: 'createdAt', header: 'Triggered At', cell: ({ row }) => <DateTime value={row.original.createdAt} stacked /> },
      {
        id: 'actions',
        header: 'Actions',
        cell: ({ row }) => {
          const a = row.original;
          const name = `${alertName(a.alertname)} on ${a.hostname}`;
          return (
            <div className="flex items-center gap-1 whitespace-nowrap">
              <Button variant="ghost" size="sm" onPress={() => onView(a)} aria-label={`View ${name}`}>
                View
              </Button>
              {onToggleAck && a.status !== 'resolved' && (
                <Button variant="ghost" size="sm" disabledReason={canAck(a) === true ? false : (canAck(a) as string)} onPress={() => onToggleAck(a)} aria-label={`${a.acknowledgement ? 'Release' : 'Ack (acknowledge)'} ${name}`}>
                  {a.acknowledgement ? 'Release' : 'Ack'}
                </Button>
              )}
              <Button variant="danger-ghost" size="sm" disabledReason={canDelete === true ? false : canDelete} onPress={() => onDelete(a)} aria-label={`Delete ${name}`}>
                Delete
              </Button>
            </div>
          );
        },
      },
    ],
    [onView, onDelete, canDelete, onToggleAck, canAck],
  );
  const table = useTable({ features, columns, data: alerts, getRowId: (a) => a._id });

  // A click on a row that is not on a control opens the alert, like the servers table.
  return <DataTable table={table} label={label} loading={loading} onRowClick={onView} empty={empty} rowClassName="align-top" marks={alertMarks} />;
}
