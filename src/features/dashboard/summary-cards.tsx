import { useQuery } from '@tanstack/react-query';
import { alertsSummaryQueryOptions, nodesSummaryQueryOptions } from '../../api/analytics';
import { abbreviateCount, instanceRingText } from '../../lib/dashboard-format';
import { CardError, DashboardCard } from './dashboard-card';
import { Ring } from './ring';

function Figure({ label, value, tone }: { label: string; value: string; tone?: 'green' | 'red' }) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className={tone === 'green' ? 'font-semibold text-green-700 tabular-nums dark:text-green-400' : tone === 'red' ? 'font-semibold text-red-600 tabular-nums dark:text-red-400' : 'font-semibold tabular-nums'}>
        {value}
      </dd>
    </div>
  );
}

/** SPEC §2: the instance ring shows running/total, or '--' when the figures are missing. */
export function InstanceSummaryCard() {
  const q = useQuery(nodesSummaryQueryOptions());
  const s = q.data?.result;
  return (
    <DashboardCard title="Instance Summary" span={6} busy={q.isFetching} card="instances">
      {q.isError && !s ? <CardError error={q.error} /> : null}
      <div className="flex items-center gap-4">
        <Ring label="Running instances" part={s?.total_nodes_up} total={s?.total_nodes} text={instanceRingText(s?.total_nodes_up, s?.total_nodes)} tone="green" />
        <dl className="flex min-w-0 flex-1 flex-col gap-1">
          <Figure label="Total" value={s ? String(s.total_nodes) : '--'} />
          <Figure label="Running" value={s ? String(s.total_nodes_up) : '--'} tone="green" />
          <Figure label="Down" value={s ? String(s.total_nodes_down) : '--'} tone="red" />
        </dl>
      </div>
    </DashboardCard>
  );
}

/** SPEC §2: the alert ring shows the firing share of all alerts; counts abbreviate (k, m, b). */
export function AlertsSummaryCard() {
  const q = useQuery(alertsSummaryQueryOptions());
  const s = q.data?.result;
  return (
    <DashboardCard title="Alerts Summary" span={6} busy={q.isFetching} card="alerts">
      {q.isError && !s ? <CardError error={q.error} /> : null}
      <div className="flex items-center gap-4">
        <Ring label="Firing alerts" part={s?.total_alerts_firing} total={s?.total_alerts} text={abbreviateCount(s?.total_alerts_firing)} tone="red" />
        <dl className="flex min-w-0 flex-1 flex-col gap-1">
          <Figure label="Total" value={abbreviateCount(s?.total_alerts)} />
          <Figure label="Firing" value={abbreviateCount(s?.total_alerts_firing)} tone="red" />
          <Figure label="Resolved" value={abbreviateCount(s?.total_alerts_resolved)} tone="green" />
        </dl>
      </div>
    </DashboardCard>
  );
}
