import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { matcherText, windowStateLabels, type MaintenanceWindow } from '../../../server/contract/routing';
import { windowsListQueryOptions } from '../../api/maintenance-windows';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { NotificationsTabs } from '../../components/ui/link-tabs';
import { Segmented } from '../../components/ui/segmented';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { MaintenanceCalendar } from './maintenance-calendar';
import { WindowDrawer } from './window-drawer';
import { LoadError } from '../../components/ui/load-error';

const route = getRouteApi('/app/notifications/maintenance');
const features = tableFeatures({});

const covers = (w: MaintenanceWindow) =>
  [w.serverIds.length ? `${w.serverIds.length} server${w.serverIds.length === 1 ? '' : 's'}` : '', w.matchers.length ? w.matchers.map(matcherText).join(', ') : ''].filter(Boolean).join(' + ');

/** Issue 14 §3: Notifications › Maintenance — windows as a list or a month calendar; create, edit, delete through their commands. */
export function MaintenancePage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const runner = useCommandRunner();
  const view = search.view ?? 'list';
  const query = useQuery({ ...windowsListQueryOptions(), refetchInterval: 60_000 });
  const canWrite = runner.check('maintenance.create');
  const open = (edit: string | undefined) => void navigate({ search: (s) => ({ ...s, edit }) });

  const columns = useMemo<ColumnDef<typeof features, MaintenanceWindow>[]>(
    () => [
      { id: 'name', header: 'Name', cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
      { id: 'covers', header: 'Covers', cell: ({ row }) => <span className="text-sm">{covers(row.original)}</span> },
      { id: 'schedule', header: 'Schedule', cell: ({ row }) => <code className="text-xs">{row.original.rrule ?? 'once'}</code> },
      { id: 'timezone', header: 'Time zone', cell: ({ row }) => row.original.timezone },
      {
        id: 'next',
        header: 'Now / next',
        cell: ({ row }) => {
          const w = row.original;
          return (
            // Wraps between its parts (not inside a date), so the table fits at 1280 px (issue 13).
            <span>
              {windowStateLabels[w.state]}
              {w.next ? (
                <>
                  {' · '}
                  <span className="whitespace-nowrap">{new Date(w.next.start).toLocaleString()}</span>
                  {' – '}
                  <span className="whitespace-nowrap">{new Date(w.next.end).toLocaleTimeString()}</span>
                </>
              ) : (
                ''
              )}
            </span>
          );
        },
      },
      {
        id: 'actions',
        header: 'Actions',
        cell: ({ row }) => {
          const w = row.original;
          // Edit asks the command its drawer saves with; the other button is bound to its own.
          const canEdit = runner.check('maintenance.edit');
          return (
            <div className="flex gap-1 whitespace-nowrap">
              <Button variant="ghost" size="sm" aria-label={`Edit ${w.name}`} disabledReason={canEdit === true ? false : canEdit} onPress={() => open(w._id)}>
                Edit
              </Button>
              <CommandButton command="maintenance.delete" input={{ window: w._id }} variant="danger-ghost" size="sm" aria-label={`Delete ${w.name}`}>
                Delete
              </CommandButton>
            </div>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [runner],
  );
  const table = useTable({ features, columns, data: query.data?.result.data ?? [], getRowId: (w) => w._id });

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Notifications</h1>
      <NotificationsTabs current="maintenance" />
      <div className="flex flex-wrap items-center gap-2">
        <Segmented<'list' | 'calendar'>
          aria-label="View"
          options={[
            { value: 'list', label: 'List' },
            { value: 'calendar', label: 'Calendar' },
          ]}
          value={view}
          // The same commands the palette and the command line run (issue 13: list actions are commands).
          onChange={(v) => void (v === 'calendar' ? runner.run('maintenance.calendar', search.month ? { month: search.month } : {}) : runner.run('maintenance.list', {}))}
        />
        <span className="mr-auto" />
        <Button variant="primary" disabledReason={canWrite === true ? false : canWrite} onPress={() => open('new')}>
          New window
        </Button>
      </div>
      {query.isError && (
        <LoadError title="Could not load maintenance windows:" detail={query.error.message} />
      )}
      {view === 'calendar' ? (
        <MaintenanceCalendar month={search.month} onMonth={(m) => void runner.run('maintenance.calendar', { month: m })} onOpen={(wid) => open(wid)} />
      ) : (
        <DataTable
          table={table}
          label="Maintenance windows"
          loading={query.isPending}
          empty={<p className="py-6 text-center text-sm text-slate-600 dark:text-slate-400">No maintenance windows. Plan downtime with New window: alerts inside it open marked “in maintenance” and notify nobody.</p>}
        />
      )}
      {search.edit && <WindowDrawer id={search.edit === 'new' ? null : search.edit} onClose={() => open(undefined)} />}
    </div>
  );
}
