import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import type { CommandInput } from '../../../commands';
import { incidentReportQueryOptions } from '../../api/incident-report';
import { serverQueryOptions } from '../../api/servers';
import { Button } from '../../components/ui/button';
import { ServerPicker } from '../../components/servers/server-picker';
import { Segmented } from '../../components/ui/segmented';
import { Skeleton } from '../../components/ui/skeleton';
import { inputClass } from '../../components/ui/text-field';
import { cx } from '../../components/ui/cx';
import { downloadText } from '../../lib/download';
import { MarkdownView } from '../../lib/markdown';
import { reportCall, reportFileName, reportPresets, resolveReportWindow, type ReportPreset } from '../../lib/report-window';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { toDateTimeInput } from '../../lib/time-range';
import { onLiveMessage } from '../../lib/live-events';

const route = getRouteApi('/app/incident-report');
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Issue 5 §4: the incident report of a window — alerts, their notes and the commands people
 * ran — rendered, and downloadable as the .md an on-call engineer pastes into a post-mortem.
 * The window and server live in the URL; every change runs `incident.report`, which writes it.
 */
export function IncidentReportPage() {
  const search = route.useSearch();
  const runner = useCommandRunner();
  // A URL without a window means "the default window as of opening the page", not a moving one.
  const [openedAt, setOpenedAt] = useState(() => Date.now());
  // A window that ends now (a preset, or no window given) moves its end as records arrive live.
  const endsNow = search.to === undefined || search.to === 'now';
  useEffect(() => (endsNow ? onLiveMessage((m) => (m.kind === 'history' || m.kind === 'alert') && setOpenedAt(Date.now())) : undefined), [endsNow]);
  const window = useMemo(() => resolveReportWindow(search.from, search.to, openedAt), [search.from, search.to, openedAt]);
  const valid = typeof window !== 'string';
  const query = useQuery({
    ...incidentReportQueryOptions(valid ? reportCall(window, search.server) : { from: '', to: '' }),
    enabled: valid,
    placeholderData: keepPreviousData,
  });
  const [preset, setPreset] = useState<ReportPreset | null>(null);

  const run = useCallback(async (input: CommandInput<'incident.report'>) => (await runner.run('incident.report', input)) !== null, [runner]);
  const fixed = valid ? { from: iso(window.from), to: iso(window.to) } : {};
  const report = query.data?.result;

  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold">Incident report</h1>
        <div className="ml-auto flex items-center gap-2">
          <Button size="sm" onPress={() => void query.refetch()} isDisabled={!valid || query.isFetching}>
            Refresh
          </Button>
          <CommandButton command="history.export" input={{ ...fixed, server: search.server }} size="sm" isDisabled={!valid}>
            Download .jsonl
          </CommandButton>
          <Button variant="primary" size="sm" isDisabled={!report || !valid} onPress={() => report && valid && downloadText(report.markdown, reportFileName(window.from, window.to))}>
            Download .md
          </Button>
        </div>
      </header>

      <section aria-label="Report window" className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
        <div className="flex flex-wrap items-end gap-3">
          <Segmented
            aria-label="Window"
            size="sm"
            fillOnPhone
            options={reportPresets.map((p) => ({ value: p.value, label: p.label }))}
            value={preset}
            onChange={(p) => {
              setPreset(p);
              void run({ from: `-${p}`, to: 'now', server: search.server });
            }}
          />
          <WindowForm
            key={valid ? `${window.from}-${window.to}` : 'invalid'}
            window={valid ? window : null}
            onApply={async (from, to) => {
              const ok = await run({ from, to, server: search.server });
              if (ok) setPreset(null);
            }}
          />
          <ServerChoice serverId={search.server} onChange={(server) => void run({ ...fixed, server })} />
        </div>
        <p className="text-xs text-slate-500 dark:text-slate-400">Times are UTC. The report lists the alerts open during the window, with their whole timelines, and the commands run in it.</p>
      </section>

      {!valid && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {window}
        </p>
      )}
      {valid && query.isError && !report && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {query.error.message}
        </p>
      )}
      {valid && query.isPending && (
        <div className="space-y-2">
          <Skeleton className="h-7 w-2/3" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      )}
      {report && (
        <>
          <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
            {report.alerts} {report.alerts === 1 ? 'alert' : 'alerts'} · {report.commands} {report.commands === 1 ? 'command' : 'commands'}
          </p>
          {/* A table's first column is its time: one line, never wrapped onto three (issue 24 §4). */}
          <article aria-label="Report preview" className={cx('rounded-lg border border-slate-200 bg-white p-5 text-sm dark:border-slate-700 dark:bg-slate-900 [&_td:first-child]:whitespace-nowrap', query.isFetching && 'opacity-70')}>
            <MarkdownView>{report.markdown}</MarkdownView>
          </article>
        </>
      )}
    </div>
  );
}

/** From and To typed in UTC; applied together, so a half-typed window never loads. */
function WindowForm({ window, onApply }: { window: { from: number; to: number } | null; onApply: (from: string, to: string) => Promise<void> }) {
  const [from, setFrom] = useState(() => (window ? toDateTimeInput(window.from, 'utc') : ''));
  const [to, setTo] = useState(() => (window ? toDateTimeInput(window.to, 'utc') : ''));
  const id = useId();
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void onApply(from, to);
      }}
    >
      <label htmlFor={`${id}-from`} className="flex flex-col gap-1 text-sm font-medium text-slate-700 dark:text-slate-300">
        From (UTC)
        <input id={`${id}-from`} type="datetime-local" className={inputClass} value={from} onChange={(e) => setFrom(e.target.value)} required />
      </label>
      <label htmlFor={`${id}-to`} className="flex flex-col gap-1 text-sm font-medium text-slate-700 dark:text-slate-300">
        To (UTC)
        <input id={`${id}-to`} type="datetime-local" className={inputClass} value={to} onChange={(e) => setTo(e.target.value)} required />
      </label>
      <Button type="submit">Apply</Button>
    </form>
  );
}

/** All servers, or one picked by hostname (SPEC §7 server selector: active, configured servers). */
function ServerChoice({ serverId, onChange }: { serverId: string | undefined; onChange: (serverId: string | undefined) => void }) {
  const current = useQuery({ ...serverQueryOptions(serverId ?? ''), enabled: !!serverId });
  return (
    <div className="flex items-end gap-2">
      <ServerPicker
        label="Server"
        placeholder={serverId ? (current.data?.result.hostname ?? 'One server') : 'All servers'}
        className="w-56"
        description={(s) => s.ipaddress}
        emptyText="No servers match"
        onSelect={(s) => {
          if (s._id !== serverId) onChange(s._id);
        }}
      />
      {serverId && (
        <span className="flex h-9 items-center gap-2 text-sm">
          <span>
            Server: <strong>{current.data?.result.hostname ?? '…'}</strong>
          </span>
          <Button size="sm" variant="ghost" onPress={() => onChange(undefined)}>
            All servers
          </Button>
        </span>
      )}
    </div>
  );
}
