import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { HistoryFilters } from '../../lib/shell-events';
import { commandOutcomes, sourceText, type CommandHistoryEntry } from '../../../server/contract/command-history';
import type { ListQuery } from '../../../server/contract/common';
import { commandHistoryQueryOptions } from '../../api/command-history';
import { Button } from '../../components/ui/button';
import { useDebouncedText } from '../../components/ui/search-field';
import { useCommandRunner } from '../../app/command-host/run-command';
import { cx } from '../../components/ui/cx';
import { markedRowClass, useMarkableRows } from '../../components/ui/marks';
import { Icon } from '../../components/ui/icons';
import { parseDuration } from '../../../server/contract/duration';
import { rerunnable } from '../../../commands/history/rerun-command';
import { HISTORY_SPANS } from '../../../commands/history/show-history';
import { useLiveInterval } from '../../lib/use-connection';

type MarkRowProps = ReturnType<ReturnType<typeof useMarkableRows>>;

const outcomeStyle: Record<CommandHistoryEntry['outcome'], string> = {
  ok: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100',
  error: 'bg-red-100 text-red-800 dark:bg-red-900 dark:text-red-100',
  cancelled: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  refused: 'bg-amber-100 text-amber-800 dark:bg-amber-900 dark:text-amber-100',
};

/** The server-side filter for the boxes, the time range and the kinds shown; empty boxes are left out. */
export function historyQuery(filters: HistoryFilters, now = Date.now()): ListQuery {
  const filter: NonNullable<ListQuery['filter']> = {};
  const command = filters.command?.trim();
  const username = filters.username?.trim();
  if (command) filter.command = { contains: command };
  if (username) filter.username = { contains: username };
  if (filters.outcome) filter.outcome = { eq: filters.outcome };
  const span = filters.since ? parseDuration(filters.since) : undefined;
  // The end is ahead of now, so what happens while the panel is open still falls inside.
  if (span) filter.createdAt = { between: [new Date(now - span * 1000).toISOString(), new Date(now + 86_400_000).toISOString()] };
  // Sign-ins and views are hidden unless asked for; Opsdeck's own events are shown unless not.
  filter.kind = ['command', ...(filters.system === false ? [] : ['system']), ...(filters.signins ? ['signin', 'view'] : [])];
  return { pageNumber: 1, pageSize: 100, sort: { by: 'createdAt', direction: 'desc' }, filter };
}

/** A record's line as people read it: names, matchers and spans in words (the server's `displayLine`). */
export const shownLine = (e: Pick<CommandHistoryEntry, 'displayLine' | 'commandLine' | 'command'>): string => e.displayLine ?? e.commandLine ?? e.command;

/** One line: "2 Dec 2026, 07:31:05" never wraps onto three. */
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** Who, as the record names them: a person (and their role then), a person's token, an agent key, Opsdeck. */
export function whoLabel(e: Pick<CommandHistoryEntry, 'username' | 'role' | 'actorKind' | 'actorLabel'>): string {
  if (e.actorKind === 'token') return `${e.username} (token ${e.actorLabel ?? ''})`;
  if (e.actorKind === 'user' && e.role) return `${e.username} (${e.role})`;
  return e.username;
}


/**
 * One record: the line that ran (re-runnable as written) or the call made without a command,
 * what it touched by the names they had then, who, when, from where, how it ended. Browser
 * reports are marked: only the server's records say what happened on the server.
 */
function HistoryRow({ entry, mark, undone, onRerun }: { entry: CommandHistoryEntry; mark: MarkRowProps; undone: CommandHistoryEntry | undefined; onRerun: () => void }) {
  // The line by name (what ran, or the call made without a command); an undo reads as one.
  const line = shownLine(entry);
  return (
    <li {...mark} className={cx('grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 px-5 py-2 text-sm', markedRowClass)} data-record={entry._id} data-kind={entry.actorKind === 'system' ? 'system' : 'command'}>
      <div className="min-w-0">
        <div className="flex min-w-0 items-center gap-2">
          {entry.undoOf ? (
            <UndoOf entry={undone} />
          ) : (
            <code className="truncate font-mono font-medium" title={entry.commandLine && entry.commandLine !== line ? `Stored line: ${entry.commandLine}` : line} data-line>
              {line}
            </code>
          )}
          <span className={`shrink-0 rounded px-1.5 py-0.5 text-xs ${outcomeStyle[entry.outcome]}`}>{entry.outcome}</span>
          {entry.origin === 'client' && (
            <span className="shrink-0 rounded border border-slate-300 px-1.5 py-0.5 text-xs text-slate-600 dark:border-slate-600 dark:text-slate-300" title="Reported by the browser for a run that made no API write">
              client-reported
            </span>
          )}
        </div>
        <p className="truncate whitespace-nowrap text-xs text-slate-500 dark:text-slate-400" title={entry.requestId ? `Request ${entry.requestId}` : undefined} data-meta>
          {whoLabel(entry)} · <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time>
          {entry.actorKind === 'system' ? '' : ` · ${sourceText(entry.source)} · ${entry.durationMs} ms`}
          {entry.status ? ` · ${entry.status}` : ''}
        </p>
        {/* A call made without a command (curl) has no line to name things: its targets say what it touched. */}
        {!entry.displayLine && entry.targets.length > 0 && (
          <p className="text-xs text-slate-700 dark:text-slate-200" aria-label="Targets">
            {entry.targets.map((t) => `${t.kind} ${t.name}`).join(' · ')}
          </p>
        )}
        {entry.error && <p className="text-xs text-red-600 dark:text-red-400">{entry.error}</p>}
      </div>
      {rerunnable(entry) ? (
        <Button size="sm" aria-label={`Re-run ${line}`} onPress={onRerun}>
          Re-run
        </Button>
      ) : (
        <span />
      )}
    </li>
  );
}

const inputClass = 'h-8 rounded-md border border-slate-300 bg-white px-2 text-sm dark:border-slate-600 dark:bg-slate-800';
/** Typing stays smooth: a filter box runs history.show this long after its last keystroke. */
const FILTER_DEBOUNCE_MS = 300;

/** A text filter box: runs `onCommit` after a pause (the list search boxes' debounce, shorter). */
function FilterBox({ value, onCommit, ...props }: { value: string; onCommit: (text: string) => void; id?: string; 'aria-label': string; placeholder: string }) {
  const [text, setText] = useDebouncedText(value, onCommit, FILTER_DEBOUNCE_MS);
  return <input {...props} className={inputClass} value={text} onChange={(e) => setText(e.target.value)} />;
}

/**
 * Everyone's commands, newest first — the team's log during an incident. Refetched every 5 s
 * while open so a colleague's actions show up without reloading.
 */
export function HistoryPanel({ filters, onClose }: { filters: HistoryFilters; onClose: () => void }) {
  const runner = useCommandRunner();
  // The filters are history.show's (issue 13): the boxes run it, as the palette and the command line do.
  const latest = useRef(filters);
  latest.current = filters;
  const filterBy = useMemo(
    () => (patch: HistoryFilters) => {
      const next = { ...latest.current, ...patch };
      void runner.run('history.show', {
        ...(next.command ? { command: next.command } : {}),
        ...(next.username ? { user: next.username } : {}),
        ...(next.outcome ? { outcome: next.outcome as CommandHistoryEntry['outcome'] } : {}),
        ...(next.since ? { since: next.since } : {}),
        ...(next.system === false ? { system: false } : {}),
        ...(next.signins ? { signins: true } : {}),
      });
    },
    [runner],
  );
  const onCommand = useMemo(() => (command: string) => filterBy({ command }), [filterBy]);
  const onUser = useMemo(() => (username: string) => filterBy({ username }), [filterBy]);
  // A time range is counted back from when it was chosen (the query stays one key while it shows).
  const query = useMemo(() => historyQuery(filters), [filters]);
  const { data, isPending, isError, error } = useQuery({ ...commandHistoryQueryOptions(query), refetchInterval: useLiveInterval(5000), placeholderData: keepPreviousData });
  const closeRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<Element | null>(typeof document !== 'undefined' ? document.activeElement : null);
  useEffect(() => {
    const first = document.getElementById('history-filter-command');
    first?.focus();
    const el = returnFocus.current;
    return () => {
      if (el instanceof HTMLElement) el.focus();
    };
  }, []);

  const rows = useMemo(() => data?.result.data ?? [], [data]);
  const byId = new Map(rows.map((r) => [r._id, r]));
  // Marked entries are re-run one after another by history.rerun from the palette or the command
  // line, which take this panel's place: so its marks stay when it closes (the bar shows them).
  const markable = useMemo(() => rows.map((r) => ({ id: r._id, label: `${shownLine(r)} by ${r.username}` })), [rows]);
  const markRow = useMarkableRows('command', markable, { keepWhenGone: true });
  return (
    <div
      role="dialog"
      aria-label="Command history"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
      className="fixed inset-y-0 right-0 z-40 flex w-full max-w-3xl flex-col border-l border-slate-200 bg-white text-slate-900 shadow-2xl dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      <header className="flex items-center justify-between border-b border-slate-200 px-5 py-3 dark:border-slate-700">
        <h2 className="text-base font-semibold">Command history</h2>
        <div className="flex items-center gap-2">
          <Button
            size="sm"
            onPress={() => {
              // The report is a page of its own (incident.report navigates); the panel steps aside.
              void runner.run('incident.report', {}).then((result) => result && onClose());
            }}
          >
            Incident report
          </Button>
          <Button variant="ghost" size="sm" round aria-label="Close" onPress={onClose}>
            <Icon name="close" />
          </Button>
        </div>
      </header>
      <div className="flex flex-wrap gap-2 border-b border-slate-200 px-5 py-2 dark:border-slate-700">
        <FilterBox id="history-filter-command" aria-label="Filter by command" placeholder="Command" value={filters.command ?? ''} onCommit={onCommand} />
        <FilterBox aria-label="Filter by user" placeholder="User" value={filters.username ?? ''} onCommit={onUser} />
        <select aria-label="Filter by outcome" className={inputClass} value={filters.outcome ?? ''} onChange={(e) => filterBy({ outcome: e.target.value || undefined })}>
          <option value="">Any outcome</option>
          {commandOutcomes.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
        <select aria-label="Time range" className={inputClass} value={filters.since ?? ''} onChange={(e) => filterBy({ since: e.target.value || undefined })}>
          <option value="">Any time</option>
          {HISTORY_SPANS.map((v) => (
            <option key={v} value={v}>
              Last {v}
            </option>
          ))}
        </select>
        <label className="flex items-center gap-1 self-center text-xs">
          <input type="checkbox" checked={filters.system !== false} onChange={(e) => filterBy({ system: e.target.checked ? undefined : false })} />
          Opsdeck's events
        </label>
        <label className="flex items-center gap-1 self-center text-xs">
          <input type="checkbox" checked={!!filters.signins} onChange={(e) => filterBy({ signins: e.target.checked || undefined })} />
          Sign-ins and views
        </label>
        <span className="ml-auto self-center text-xs text-slate-500 dark:text-slate-400">{data ? `${data.result.count} ${data.result.count === 1 ? 'entry' : 'entries'}` : ''}</span>
      </div>
      <div className="flex-1 overflow-y-auto">
        {isPending && <p className="p-5 text-sm text-slate-500 dark:text-slate-400">Loading…</p>}
        {isError && <p className="p-5 text-sm text-red-600 dark:text-red-400">{error.message}</p>}
        {!isPending && !isError && rows.length === 0 && <p className="p-5 text-sm text-slate-500 dark:text-slate-400">No commands yet.</p>}
        <ol className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((entry) => (
            <HistoryRow
              key={entry._id}
              entry={entry}
              mark={markRow({ id: entry._id, label: `${shownLine(entry)} by ${entry.username}` })}
              undone={entry.undoOf ? byId.get(entry.undoOf) : undefined}
              onRerun={() => {
                void runner.run('history.rerun', { entry: entry._id }, { source: 'history' });
              }}
            />
          ))}
        </ol>
      </div>
    </div>
  );
}

/** "undo of alert.resolve high_cpu_usage@api-01": the run an undo reversed (when it is in the list). */
function UndoOf({ entry }: { entry: CommandHistoryEntry | undefined }) {
  return (
    <span className="truncate rounded bg-violet-100 px-1.5 py-0.5 font-mono text-xs text-violet-800 dark:bg-violet-900 dark:text-violet-100" data-line>
      <Icon name="undo" className="mr-1 align-[-2px]" />
      undo of {entry ? shownLine(entry) : 'an earlier run'}
    </span>
  );
}
