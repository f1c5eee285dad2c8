import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import type { FinalSchedule, OnCallScheduleInfo, ScheduleLayer, ScheduleOverride } from '../../../server/contract/oncall';
import { finalScheduleQueryOptions, scheduleQueryOptions } from '../../api/oncall';
import { CommandButton } from '../../app/command-host/command-button';
import { DataTable } from '../../components/ui/data-table';
import { LoadError } from '../../components/ui/load-error';
import { RefreshButton } from '../../components/ui/refresh-button';
import { GapWarning } from './gap-notice';
import { sourceText, when } from './oncall-text';
import { ScheduleFeed } from './calendar-feeds';
import { ScheduleTimeline } from './schedule-timeline';

const route = getRouteApi('/app/oncall/$id');
const features = tableFeatures({});
const HOUR = 3_600_000;
const DAYS = 14;

const nameOf = (s: OnCallScheduleInfo) => (id: string) => s.people.find((p) => p._id === id)?.username ?? id;

function restrictionText(l: ScheduleLayer): string {
  if (!l.restrictions.length) return 'always';
  return l.restrictions.map((r) => (r.type === 'daily' ? `${r.days?.join(',') ?? 'every day'} ${r.from}–${r.to}` : `${r.from.day} ${r.from.time} – ${r.to.day} ${r.to.time}`)).join('; ');
}

/** One schedule (issue 27 §1): its layers (later ones win), its overrides and the final schedule of the next two weeks. */
export function SchedulePage() {
  const { id } = route.useParams();
  const schedule = useQuery({ ...scheduleQueryOptions(id), refetchInterval: 60_000 });
  // The range starts on the hour, so the query's key holds still between refetches.
  const [from] = useState(() => new Date(Math.floor(Date.now() / HOUR) * HOUR).toISOString());
  const to = useMemo(() => new Date(Date.parse(from) + DAYS * 24 * HOUR).toISOString(), [from]);
  const final = useQuery({ ...finalScheduleQueryOptions(id, from, to), refetchInterval: 60_000 });
  const s = schedule.data?.result;

  const layerColumns = useMemo<ColumnDef<typeof features, ScheduleLayer>[]>(
    () => [
      { id: 'order', header: '#', cell: ({ row }) => <span className="tabular-nums">{row.index + 1}</span> },
      { id: 'name', header: 'Layer', cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
      { id: 'people', header: 'Rotation', cell: ({ row }) => (s ? row.original.participants.map(nameOf(s)).join(' → ') : '') },
      { id: 'shift', header: 'Shift', cell: ({ row }) => `${row.original.shift.length} ${row.original.shift.unit}, handoff ${row.original.handoff}, from ${row.original.start}` },
      { id: 'hours', header: 'On call during', cell: ({ row }) => restrictionText(row.original) },
      {
        id: 'actions',
        header: 'Actions',
        cell: ({ row }) => (
          <CommandButton command="schedule.edit-layer" askWith={{ schedule: id, layer: row.original.name }} variant="ghost" size="sm" aria-label={`Edit layer ${row.original.name}`}>
            Edit
          </CommandButton>
        ),
      },
    ],
    [s, id],
  );
  const overrideColumns = useMemo<ColumnDef<typeof features, ScheduleOverride>[]>(
    () => [
      { id: 'person', header: 'Who covers', cell: ({ row }) => <span className="font-medium">{s ? nameOf(s)(row.original.person) : ''}</span> },
      { id: 'from', header: 'From', cell: ({ row }) => when(row.original.start) },
      { id: 'to', header: 'To', cell: ({ row }) => when(row.original.end) },
      { id: 'by', header: 'By', cell: ({ row }) => row.original.createdBy.username },
    ],
    [s],
  );
  const layers = useTable({ features, columns: layerColumns, data: s?.layers ?? [], getRowId: (l) => l.id });
  const overrides = useTable({ features, columns: overrideColumns, data: s?.overrides ?? [], getRowId: (o) => o._id });

  return (
    <div className="space-y-6">
      <Link to="/oncall" className="text-sm text-blue-700 hover:underline dark:text-blue-400">
        ← On Call
      </Link>
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-semibold">
          {s?.name ?? 'Schedule'} {s && <span className="text-base font-normal text-slate-500 dark:text-slate-400">· {s.timeZone}</span>}
        </h1>
        <RefreshButton command="schedule.refresh" input={{}} spinning={schedule.isFetching || final.isFetching} />
        <CommandButton command="oncall.swap" askWith={{ schedule: id }}>
          Swap shifts
        </CommandButton>
        <CommandButton command="oncall.override" askWith={{ schedule: id }}>
          Override
        </CommandButton>
        <CommandButton command="schedule.add-layer" askWith={{ schedule: id }} variant="primary">
          Add layer
        </CommandButton>
      </div>
      {schedule.isError && <LoadError title="Could not load this schedule:" detail={schedule.error.message} onRetry={() => void schedule.refetch()} />}
      {s && <GapWarning schedule={s._id} />}
      {s?.description && <p className="text-sm text-slate-600 dark:text-slate-400">{s.description}</p>}
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Layers</h2>
        <p className="text-xs text-slate-500 dark:text-slate-400">Later layers win over earlier ones wherever they have someone on call; overrides win over all.</p>
        <DataTable table={layers} label="Layers" loading={schedule.isPending} stackOnPhone />
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Next two weeks</h2>
        {final.isError && <LoadError title="Could not load the final schedule:" detail={final.error.message} onRetry={() => void final.refetch()} compact />}
        {final.data && <FinalList final={final.data.result} scheduleId={id} />}
      </section>
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Overrides</h2>
        <DataTable table={overrides} label="Overrides" loading={schedule.isPending} stackOnPhone empty={<p className="py-4 text-center text-sm text-slate-600 dark:text-slate-400">No overrides: the layers decide who is on call.</p>} />
      </section>
      {s && <ScheduleFeed schedule={id} name={s.name} hasFeed={s.feed} />}
    </div>
  );
}

/** The final schedule as a timeline of hours (keyboard and mouse make overrides there) and a list of its spans (gaps in red). */
function FinalList({ final, scheduleId }: { final: FinalSchedule; scheduleId: string }) {
  const rows = [...final.spans.map((x) => ({ ...x, gap: false as const })), ...final.gaps.map((g) => ({ ...g, gap: true as const }))].sort((a, b) => a.start.localeCompare(b.start));
  return (
    <div className="space-y-3">
      <ScheduleTimeline final={final} scheduleId={scheduleId} />
      <ul aria-label="Final schedule, next two weeks" className="divide-y divide-slate-200 rounded-lg border border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-800">
        {rows.map((r) => (
          <li key={`${r.start}-${r.gap ? 'gap' : r.person._id}`} className="flex flex-wrap gap-x-3 px-3 py-2">
            <span className="whitespace-nowrap tabular-nums">
              {when(r.start)} – {when(r.end)}
            </span>
            {r.gap ? <span className="font-medium text-red-700 dark:text-red-400">Nobody on call</span> : <span className="font-medium">{r.person.username}</span>}
            {!r.gap && <span className="text-slate-500 dark:text-slate-400">{sourceText(r.source)}</span>}
          </li>
        ))}
        {!rows.length && <li className="px-3 py-2 text-slate-500">Nothing in this range.</li>}
      </ul>
    </div>
  );
}
