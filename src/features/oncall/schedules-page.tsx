import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import type { OnCallScheduleInfo, WhoIsOnCall } from '../../../server/contract/oncall';
import { schedulesListQueryOptions, whoQueryOptions } from '../../api/oncall';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { FileDrop } from '../../components/ui/file-drop';
import { openPanel } from '../../lib/shell-events';
import { MyFeed } from './calendar-feeds';
import { DataTable } from '../../components/ui/data-table';
import { LoadError } from '../../components/ui/load-error';
import { RefreshButton } from '../../components/ui/refresh-button';
import { whoText } from './oncall-text';

const features = tableFeatures({});

/** On call (issue 27 §1): every schedule and who is on call in it now; a row opens the schedule. */
export function SchedulesPage() {
  const navigate = useNavigate();
  const runner = useCommandRunner();
  const canImport = runner.check('schedule.import');
  const list = useQuery({ ...schedulesListQueryOptions(), refetchInterval: 60_000 });
  const who = useQuery({ ...whoQueryOptions(), refetchInterval: 60_000 });
  const now = useMemo(() => new Map((who.data?.result ?? []).map((w) => [w.schedule._id, w] as const)), [who.data]);

  const columns = useMemo<ColumnDef<typeof features, OnCallScheduleInfo>[]>(
    () => [
      { id: 'name', header: 'Name', cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
      { id: 'timeZone', header: 'Time zone', cell: ({ row }) => row.original.timeZone },
      { id: 'layers', header: 'Layers', cell: ({ row }) => row.original.layers.map((l) => l.name).join(', ') },
      { id: 'now', header: 'On call now', cell: ({ row }) => <OnCallNow who={now.get(row.original._id)} /> },
      { id: 'overrides', header: 'Overrides', cell: ({ row }) => <span className="tabular-nums">{row.original.overrides.length}</span> },
    ],
    [now],
  );
  const table = useTable({ features, columns, data: list.data?.result.data ?? [], getRowId: (s) => s._id });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-semibold">On Call</h1>
        <RefreshButton command="schedule.refresh" input={{}} spinning={list.isFetching || who.isFetching} />
        <CommandButton command="schedule.import" askWith={{}}>
          Import calendar
        </CommandButton>
        <CommandButton command="schedule.create" askWith={{}} variant="primary">
          New schedule
        </CommandButton>
      </div>
      {list.isError && <LoadError title="Could not load on-call schedules:" detail={list.error.message} onRetry={() => void list.refetch()} />}
      <DataTable
        table={table}
        label="On-call schedules"
        loading={list.isPending}
        stackOnPhone
        onRowClick={(s) => void navigate({ to: '/oncall/$id', params: { id: s._id } })}
        empty={<p className="py-6 text-center text-sm text-slate-600 dark:text-slate-400">No on-call schedules yet. Create one with New schedule, or import a calendar from PagerDuty, Opsgenie or Grafana OnCall.</p>}
      />
      <section aria-labelledby="import-heading" className="space-y-2">
        <h2 id="import-heading" className="text-lg font-semibold">
          Import a calendar
        </h2>
        <p className="text-xs text-slate-600 dark:text-slate-400">An iCalendar (.ics) file that PagerDuty, Opsgenie or Grafana OnCall exports, or a shared calendar, becomes a schedule: rotations become layers, covers become overrides.</p>
        <FileDrop
          label="Drop an iCalendar file to import"
          hint="Drop an .ics file here, or"
          buttonLabel="Choose .ics file"
          accept={['.ics', 'text/calendar']}
          maxBytes={1_000_000}
          disabledReason={canImport !== true && canImport}
          onText={(calendar, file) => openPanel('palette', { palette: { command: 'schedule.import', values: { calendar }, note: `from ${file}` } })}
        />
      </section>
      <MyFeed />
    </div>
  );
}

function OnCallNow({ who }: { who: WhoIsOnCall | undefined }) {
  if (!who) return <span className="text-slate-500">…</span>;
  return <span className={who.person ? undefined : 'font-medium text-red-700 dark:text-red-400'}>{whoText(who)}</span>;
}
