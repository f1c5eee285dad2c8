import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { CpuUsageRow, DiskUsageRow, DownServerRow, MemoryUsageRow, Rows, ServiceDownRow } from '../../../server/contract/analytics';
import { downServersQueryOptions, servicesDownQueryOptions, topCpuQueryOptions, topDiskQueryOptions, topMemoryQueryOptions } from '../../api/analytics';
import { CopyButton } from '../../components/ui/copy-button';
import { formatDiskUsage, formatDowntime, formatRoundedPercent } from '../../lib/dashboard-format';
import { thresholdOf, type DashboardCard as CardName, type ThresholdCard } from '../../lib/dashboard-view';
import { CardEmpty, CardError, CardSkeleton, DashboardCard } from './dashboard-card';
import { SmallTable, type SmallColumn } from './small-table';
import { useCardCommands } from './use-card';

const route = getRouteApi('/app/');

type Host = { serverId: string; hostname: string; ipaddress: string };

const hostColumns = <T extends Host>(): SmallColumn<T>[] => [
  {
    header: 'Hostname',
    cell: (r) => (
      <Link to="/servers/show/$id" params={{ id: r.serverId }} className="font-medium text-blue-700 hover:underline dark:text-blue-400">
        {r.hostname}
      </Link>
    ),
  },
  {
    header: 'IP Address',
    cell: (r) => (
      <span className="inline-flex items-center gap-1 font-mono whitespace-nowrap">
        {r.ipaddress}
        <CopyButton value={r.ipaddress} label={`IP Address ${r.ipaddress}`} />
      </span>
    ),
  },
];

/** Loading, error (with the last figures kept if there were any), empty, or the table. */
function Body<T>({ q, empty, render }: { q: UseQueryResult<Rows<T>>; empty: string; render: (rows: T[]) => ReactNode }) {
  if (q.isPending) return <CardSkeleton />;
  if (q.isError && !q.data) return <CardError error={q.error} />;
  const rows = q.data?.result.data ?? [];
  return (
    <>
      {q.isError && <CardError error={q.error} />}
      {rows.length === 0 ? <CardEmpty>{empty}</CardEmpty> : render(rows)}
    </>
  );
}

function useThreshold(card: ThresholdCard): number {
  return thresholdOf(route.useSearch(), card);
}

function UsageCard<T extends Host>(props: { card: ThresholdCard; title: string; threshold: number; q: UseQueryResult<Rows<T>>; valueHeader: string; value: (row: T) => string }) {
  const { setThreshold } = useCardCommands();
  const { q, threshold } = props;
  const columns: SmallColumn<T>[] = [...hostColumns<T>(), { header: props.valueHeader, cell: (r) => <span className="font-semibold tabular-nums">{props.value(r)}</span> }];
  return (
    <DashboardCard
      title={props.title}
      span={12}
      busy={q.isFetching}
      card={props.card}
      threshold={{ value: threshold, onChange: (v) => setThreshold(props.card, v) }}
    >
      <Body q={q} empty={`No servers above ${threshold}%.`} render={(rows) => <SmallTable label={props.title} rows={rows} columns={columns} rowKey={(r) => r.serverId} />} />
    </DashboardCard>
  );
}

export function HighCpuCard() {
  const threshold = useThreshold('cpu');
  const q = useQuery({ ...topCpuQueryOptions(threshold), placeholderData: keepPreviousData });
  return <UsageCard<CpuUsageRow> card="cpu" title="High CPU Usage Servers" threshold={threshold} q={q} valueHeader="CPU Usage" value={(r) => formatRoundedPercent(r.value)} />;
}

/** SPEC §2: memory usage is shown as a rounded percentage. */
export function HighMemoryCard() {
  const threshold = useThreshold('memory');
  const q = useQuery({ ...topMemoryQueryOptions(threshold), placeholderData: keepPreviousData });
  return <UsageCard<MemoryUsageRow> card="memory" title="High Memory Usage Servers" threshold={threshold} q={q} valueHeader="Memory Usage" value={(r) => formatRoundedPercent(r.value)} />;
}

/** SPEC §2: disk usage is the value for Windows hosts and 100 minus the value for others, rounded. */
export function HighDiskCard() {
  const threshold = useThreshold('disk');
  const q = useQuery({ ...topDiskQueryOptions(threshold), placeholderData: keepPreviousData });
  return <UsageCard<DiskUsageRow> card="disk" title="High Disk Usage Servers" threshold={threshold} q={q} valueHeader="Disk Usage" value={(r) => formatDiskUsage(r.value, r.os)} />;
}

function ListCard<T extends Host>({ card, title, q, empty, columns, rowKey }: { card: CardName; title: string; q: UseQueryResult<Rows<T>>; empty: string; columns: SmallColumn<T>[]; rowKey: (r: T) => string }) {
  return (
    <DashboardCard title={title} span={12} busy={q.isFetching} card={card}>
      <Body q={q} empty={empty} render={(rows) => <SmallTable label={title} rows={rows} columns={columns} rowKey={rowKey} />} />
    </DashboardCard>
  );
}

export function ServicesDownCard() {
  const q = useQuery(servicesDownQueryOptions());
  const columns: SmallColumn<ServiceDownRow>[] = [...hostColumns<ServiceDownRow>(), { header: 'Service', cell: (r) => <span className="font-medium text-red-600 dark:text-red-400">{r.service}</span> }];
  return <ListCard card="services" title="Services Down" q={q} empty="No services are down." columns={columns} rowKey={(r) => `${r.serverId}/${r.service}`} />;
}

export function DownServersCard() {
  const q = useQuery(downServersQueryOptions());
  const columns: SmallColumn<DownServerRow>[] = [...hostColumns<DownServerRow>(), { header: 'Downtime', cell: (r) => <span className="tabular-nums">{formatDowntime(r.downtime)}</span> }];
  return <ListCard card="down-servers" title="Down Servers" q={q} empty="Every server is up." columns={columns} rowKey={(r) => r.serverId} />;
}
