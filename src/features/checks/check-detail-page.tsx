import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import type { CommandId, CommandInput } from '../../../commands';
import { alertTypeLabel } from '../../../server/contract/alerts';
import { checkKindLabels, checkRuleLabels, type Check } from '../../../server/contract/checks';
import { checkHistoryQueryOptions, checkQueryOptions, checkResultsQueryOptions, checkUptimeQueryOptions } from '../../api/checks';
import { notificationGroupOptionsQueryOptions } from '../../api/notification-groups';
import { CopyButton } from '../../components/ui/copy-button';
import { Segmented } from '../../components/ui/segmented';
import { Skeleton } from '../../components/ui/skeleton';
import { Switch } from '../../components/ui/switch';
import { TimeSeriesChart } from '../../components/ui/time-series-chart';
import { formatCertDays, formatLatency } from '../../lib/check-format';
import { formatChartTime } from '../../lib/chart-format';
import { formatRelativeTime } from '../../lib/format';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { CheckStateBadge, UptimeBars, UptimeText } from './check-display';

const route = getRouteApi('/app/checks/show/$id');
const REFETCH_MS = 10_000;

/** Ranges of the response-time chart: up to 24 h from every result, longer ones from hourly sums. */
const checkRanges = [
  { value: '1h', label: 'Last 1 Hour', ms: 3_600_000 },
  { value: '6h', label: 'Last 6 Hours', ms: 6 * 3_600_000 },
  { value: '24h', label: 'Last 24 Hours', ms: 24 * 3_600_000 },
  { value: '7d', label: 'Last 7 Days', ms: 7 * 86_400_000 },
  { value: '30d', label: 'Last 30 Days', ms: 30 * 86_400_000 },
  { value: '90d', label: 'Last 90 Days', ms: 90 * 86_400_000 },
] as const;
type CheckRange = (typeof checkRanges)[number]['value'];

function Tile({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-700 dark:bg-slate-900">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-lg font-semibold tabular-nums">{children}</dd>
    </div>
  );
}

/** /checks/show/$id (issue 16): state, figures, latency chart, 90-day uptime, last results and rules. */
export function CheckDetailPage() {
  const { id } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const runner = useCommandRunner();
  const range = search.span ?? '24h';
  // A check that has not run yet (just created or edited) is looked at every 2 s until it has.
  const query = useQuery({ ...checkQueryOptions(id), refetchInterval: (q) => (q.state.data?.result.state === 'unknown' && !q.state.data.result.paused ? 2000 : REFETCH_MS) });
  const check = query.data?.result;

  if (query.isPending) return <Skeleton className="h-64 w-full" />;
  if (!check) {
    return (
      <div className="space-y-3 p-6 text-center">
        <h1 className="text-xl font-semibold">Check not found</h1>
        <p className="text-sm text-slate-600 dark:text-slate-400">{query.error?.message}</p>
        <Link to="/checks" className="text-blue-700 hover:underline dark:text-blue-400">
          Back to Checks
        </Link>
      </div>
    );
  }
  return <CheckDetail check={check} range={range} onRange={(r) => void navigate({ search: (prev) => ({ ...prev, span: r }), replace: true })} runner={runner} />;
}

function CheckDetail({ check, range, onRange, runner }: { check: Check; range: CheckRange; onRange: (r: CheckRange) => void; runner: ReturnType<typeof useCommandRunner> }) {
  const [busy, setBusy] = useState<string | null>(null);
  // Each control asks the command it runs; Edit asks the one its drawer saves with.
  const canEdit = runner.check('check.edit');
  const pauseCommand = check.paused ? 'check.resume' : 'check.pause';
  const canPause = runner.check(pauseCommand);
  const run = <K extends CommandId>(key: string, id: K, input: CommandInput<K>) => {
    setBusy(key);
    void runner.run(id, input).finally(() => setBusy(null));
  };
  const uptime = useQuery({ ...checkUptimeQueryOptions(check._id), refetchInterval: 60_000 });
  const results = useQuery({ ...checkResultsQueryOptions(check._id), refetchInterval: REFETCH_MS });
  // A new result (the check's own figures moved on) refreshes the lists beside them at once:
  // the header must never say "Up, 12 ms" over a results table that still says "No results yet".
  const refetchResults = results.refetch;
  const refetchUptime = uptime.refetch;
  useEffect(() => {
    if (!check.lastCheckedAt) return;
    void refetchResults();
    void refetchUptime();
  }, [check.lastCheckedAt, refetchResults, refetchUptime]);
  const groups = useQuery(notificationGroupOptionsQueryOptions(''));
  const groupName = (gid: string | null) => (gid ? (groups.data?.result.data.find((g) => g._id === gid)?.name ?? '…') : 'None');
  const u = uptime.data?.result;

  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-center gap-x-4 gap-y-3">
        <div className="min-w-0">
          <p className="text-xs text-slate-500 dark:text-slate-400">
            <Link to="/checks" className="hover:underline">
              Checks
            </Link>{' '}
            / {checkKindLabels[check.kind]}
          </p>
          <h1 className="truncate text-2xl font-semibold">{check.name}</h1>
          <p className="flex items-center gap-1 text-sm text-slate-600 dark:text-slate-400">
            <span className="truncate font-mono" data-testid="check-target">
              {check.target}
            </span>
            <CopyButton value={check.url ?? check.target} label={`Target ${check.target}`} />
          </p>
        </div>
        <CheckStateBadge check={check} />
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <span title={canPause === true ? undefined : canPause}>
            <Switch isSelected={check.paused} isDisabled={canPause !== true || busy === 'pause'} onChange={(on) => run('pause', on ? 'check.pause' : 'check.resume', { check: check._id })}>
              Paused
            </Switch>
          </span>
          <CommandButton command="check.run-now" input={{ check: check._id }}>
            {(running) => (running ? 'Running…' : 'Run now')}
          </CommandButton>
          <Link to="/checks/edit/$id" params={{ id: check._id }} search={{}} disabled={canEdit !== true} className="inline-flex h-9 items-center rounded-md border border-slate-300 px-3.5 text-sm font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800">
            Edit
          </Link>
          <CommandButton command="check.delete" input={{ check: check._id }} variant="danger-ghost">
            Delete
          </CommandButton>
        </div>
      </header>

      {check.state === 'down' && check.lastError && !check.paused && (
        <p role="status" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          <strong>Down since {check.stateChangedAt ? new Date(check.stateChangedAt).toLocaleString() : '--'}:</strong> {check.lastError}
        </p>
      )}

      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-8">
        <Tile label="Response time">{formatLatency(check.latencyMs)}</Tile>
        <Tile label="Status code">{check.statusCode ?? '--'}</Tile>
        <Tile label="Certificate">{formatCertDays(check.certDaysLeft)}</Tile>
        <Tile label="Uptime 24 h">
          <UptimeText value={u?.uptime24h ?? check.uptime24h} />
        </Tile>
        <Tile label="Uptime 7 days">
          <UptimeText value={u?.uptime7d ?? null} />
        </Tile>
        <Tile label="Uptime 30 days">
          <UptimeText value={u?.uptime30d ?? null} />
        </Tile>
        <Tile label="Uptime 90 days">
          <UptimeText value={u?.uptime90d ?? null} />
        </Tile>
        <Tile label="Last checked">{formatRelativeTime(check.lastCheckedAt)}</Tile>
      </dl>
      {check.certProblem && <p className="text-sm text-orange-700 dark:text-orange-300">Certificate problem: {check.certProblem}{check.ignoreTlsErrors ? ' (ignored by this check)' : ''}</p>}

      <section className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900" aria-label="90-day uptime">
        <h2 className="mb-3 text-base font-semibold">Uptime, last 90 days</h2>
        {u ? <UptimeBars days={u.days} /> : <Skeleton className="h-8 w-full" />}
      </section>

      <LatencyChart check={check} range={range} onRange={onRange} />

      {/* Side by side only where the rules table has the room for its seven columns. */}
      <div className="grid grid-cols-1 gap-4 2xl:grid-cols-2">
        <section className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
          <h2 className="mb-3 text-base font-semibold">Last results</h2>
          <table className="w-full text-sm" aria-label="Last results">
            <thead className="text-left text-xs text-slate-500 dark:text-slate-400">
              <tr className="[&>th]:pr-4 [&>th:last-child]:pr-0">
                <th className="py-1 font-semibold">Time</th>
                <th className="font-semibold">Result</th>
                <th className="font-semibold">Response time</th>
                <th className="font-semibold">Detail</th>
              </tr>
            </thead>
            <tbody>
              {(results.data?.result ?? []).map((r) => (
                <tr key={r.at} className="border-t border-slate-100 dark:border-slate-800 [&>td]:pr-4 [&>td:last-child]:pr-0">
                  <td className="py-1 whitespace-nowrap">{new Date(r.at).toLocaleTimeString()}</td>
                  <td className={r.up ? 'text-green-700 dark:text-green-400' : 'text-red-600 dark:text-red-400'}>{r.up ? 'Up' : 'Down'}</td>
                  <td className="tabular-nums">{formatLatency(r.latencyMs)}</td>
                  <td className="max-w-xs truncate" title={r.error ?? undefined}>
                    {r.error ?? (r.statusCode !== null ? `HTTP ${r.statusCode}` : '')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {/* A check that has run has a result: while the list catches up with the state above, it says so rather than "none". */}
          {results.data && !results.data.result.length && <p className="text-sm text-slate-500 dark:text-slate-400">{check.lastCheckedAt ? 'Loading the latest results…' : 'No results yet.'}</p>}
        </section>
        <section className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
          <h2 className="mb-3 text-base font-semibold">Alert rules</h2>
          <div className="overflow-x-auto">
          <table className="w-full text-sm" aria-label="Alert rules">
            <thead className="text-left text-xs text-slate-500 dark:text-slate-400">
              <tr className="[&>th]:py-1 [&>th]:pr-4 [&>th]:align-bottom [&>th:last-child]:pr-0">
                <th className="font-semibold">Name</th>
                <th className="font-semibold">Type</th>
                <th className="font-semibold">Threshold</th>
                <th className="font-semibold">Grace Period</th>
                <th className="font-semibold">Severity</th>
                <th className="font-semibold">Notification Group</th>
                <th className="font-semibold">Enabled</th>
              </tr>
            </thead>
            <tbody>
              {check.rules.map((r) => (
                <tr key={r._id} className="border-t border-slate-100 align-top dark:border-slate-800 [&>td]:py-1 [&>td]:pr-4 [&>td:last-child]:pr-0">
                  <td>{checkRuleLabels[r.kind]}</td>
                  <td>{alertTypeLabel('website_alert')}</td>
                  <td className="whitespace-nowrap">{r.kind === 'latency' ? `> ${r.threshold} ms` : r.kind === 'cert_expiry' ? `< ${r.threshold} days` : '—'}</td>
                  <td className="whitespace-nowrap">{r.timeLimit ? `${r.timeLimit} s` : 'none'}</td>
                  <td>{r.severity}</td>
                  <td>{groupName(r.notificationGroup)}</td>
                  <td>{r.enabled ? 'Yes' : 'No'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
          <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
            Change them with Edit (or <code className="rounded bg-slate-100 px-1 font-mono text-slate-800 dark:bg-slate-800 dark:text-slate-200">check.edit</code> on the command line).
          </p>
        </section>
      </div>
    </div>
  );
}

function LatencyChart({ check, range, onRange }: { check: Check; range: CheckRange; onRange: (r: CheckRange) => void }) {
  const span = checkRanges.find((r) => r.value === range)!.ms;
  // The window moves once a minute (a new query key), the data refetches every 10 s within it.
  const [minute, setMinute] = useState(() => Math.floor(Date.now() / 60_000));
  useEffect(() => {
    const t = setInterval(() => setMinute(Math.floor(Date.now() / 60_000)), 60_000);
    return () => clearInterval(t);
  }, []);
  const to = (minute + 1) * 60_000;
  const from = to - span;
  const history = useQuery({ ...checkHistoryQueryOptions(check._id, from, to), placeholderData: keepPreviousData, refetchInterval: REFETCH_MS });
  const data = history.data?.result;
  // A new result is drawn when it comes, not at the next 10 s refetch.
  const refetchHistory = history.refetch;
  useEffect(() => {
    if (check.lastCheckedAt) void refetchHistory();
  }, [check.lastCheckedAt, refetchHistory]);
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900" aria-label="Response time">
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <h2 className="mr-auto text-base font-semibold">Response time</h2>
        <Segmented aria-label="Range" size="sm" options={checkRanges.map((r) => ({ value: r.value, label: r.label }))} value={range} onChange={onRange} />
      </div>
      {!data ? (
        <Skeleton className="h-64 w-full" />
      ) : (
        <TimeSeriesChart
          ariaLabel="Response time over time"
          timestamps={data.timestamps}
          series={[{ label: 'Response time', values: data.latency }]}
          height={260}
          timeZone="local"
          formatValue={(v) => formatLatency(v)}
          formatTime={(t) => formatChartTime(t, 'local')}
          yMin={0}
          emptyText="No results in this time range"
        />
      )}
    </section>
  );
}
