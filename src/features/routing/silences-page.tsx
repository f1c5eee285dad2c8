import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { matcherText, silenceStateLabels, type Silence } from '../../../server/contract/routing';
import { silencesListQueryOptions } from '../../api/silences';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { NotificationsTabs } from '../../components/ui/link-tabs';
import { Segmented } from '../../components/ui/segmented';
import { DateTime } from '../../lib/alert-display';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { SilenceDrawer } from './silence-drawer';
import { LoadError } from '../../components/ui/load-error';

const route = getRouteApi('/app/notifications/silences');
const features = tableFeatures({});

/** Issue 14 §2: Notifications › Silences — list, create, edit and expire, each through its command. */
export function SilencesPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const runner = useCommandRunner();
  const state = search.state ?? 'current';
  const query = useQuery({ ...silencesListQueryOptions(state), refetchInterval: 30_000 });
  const canWrite = runner.check('silence.create');
  const open = (edit: string | undefined) => void navigate({ search: (s) => ({ ...s, edit }) });

  const columns = useMemo<ColumnDef<typeof features, Silence>[]>(
    () => [
      { id: 'state', header: 'State', cell: ({ row }) => <span className="whitespace-nowrap">{silenceStateLabels[row.original.state]}</span> },
      {
        id: 'matchers',
        header: 'Matchers',
        // One matcher a line, broken only where a line cannot hold it (never a letter at a time).
        cell: ({ row }) => (
          <ul className="space-y-0.5">
            {row.original.matchers.map((m, i) => (
              <li key={i}>
                <code className="text-xs break-words">{matcherText(m)}</code>
              </li>
            ))}
          </ul>
        ),
      },
      { id: 'startsAt', header: 'Starts', cell: ({ row }) => <DateTime value={row.original.startsAt} stacked /> },
      { id: 'endsAt', header: 'Ends', cell: ({ row }) => <DateTime value={row.original.endsAt} stacked /> },
      { id: 'createdBy', header: 'Created by', cell: ({ row }) => <span className="whitespace-nowrap">{row.original.createdBy.username}</span> },
      { id: 'comment', header: 'Comment', cell: ({ row }) => <span className="line-clamp-2 max-w-xs">{row.original.comment}</span> },
      {
        id: 'actions',
        header: 'Actions',
        cell: ({ row }) => {
          const s = row.original;
          if (s.state === 'expired') return null;
          const name = s.matchers.map(matcherText).join(', ');
          // Edit asks the command its drawer saves with; the other button is bound to its own.
          const canEdit = runner.check('silence.edit');
          return (
            <div className="flex gap-1 whitespace-nowrap">
              <Button variant="ghost" size="sm" aria-label={`Edit silence ${name}`} disabledReason={canEdit === true ? false : canEdit} onPress={() => open(s._id)}>
                Edit
              </Button>
              <CommandButton command="silence.expire" input={{ silence: s._id }} variant="danger-ghost" size="sm" aria-label={`Expire silence ${name}`}>
                Expire
              </CommandButton>
            </div>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [runner],
  );
  const table = useTable({ features, columns, data: query.data?.result.data ?? [], getRowId: (s) => s._id });

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Notifications</h1>
      <NotificationsTabs current="silences" />
      <div className="flex flex-wrap items-center gap-2">
        <Segmented<'current' | 'expired'>
          aria-label="Which silences"
          options={[
            { value: 'current', label: 'Active & pending' },
            { value: 'expired', label: 'Expired' },
          ]}
          value={state}
          // The same command the palette and the command line run (issue 13: list actions are commands).
          onChange={(v) => void runner.run('silence.list', { state: v })}
        />
        <span className="mr-auto" />
        <Button variant="primary" disabledReason={canWrite === true ? false : canWrite} onPress={() => open('new')}>
          New silence
        </Button>
      </div>
      {query.isError && (
        <LoadError title="Could not load silences:" detail={query.error.message} />
      )}
      <DataTable
        table={table}
        label="Silences"
        loading={query.isPending}
        stackOnPhone
        empty={<p className="py-6 text-center text-sm text-slate-600 dark:text-slate-400">{state === 'expired' ? 'No expired silences.' : 'No active or pending silences. Silence alerts that match for a while with New silence.'}</p>}
      />
      {search.edit && <SilenceDrawer id={search.edit === 'new' ? null : search.edit} onClose={() => open(undefined)} />}
    </div>
  );
}
