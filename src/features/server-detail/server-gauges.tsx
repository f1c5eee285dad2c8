import { useQuery } from '@tanstack/react-query';
import type { Server, ServerUsage } from '../../../server/contract/servers';
import { serverUsageQueryOptions } from '../../api/servers';
import { Gauge } from '../../components/ui/gauge';
import { Skeleton } from '../../components/ui/skeleton';
import { formatChartValue, gaugeTone } from '../../lib/chart-format';
import { formatByteRate, formatBytes, formatPercent, formatRelativeTime, formatUptime } from '../../lib/format';
import { liveRefetchMs } from './live';
import { Card } from './states';
import { LoadError } from '../../components/ui/load-error';

const known = (v: number | null | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);

/** Load average as a share of the cores: 100 % is one runnable task per core. */
function perCore(load: number | null, cores: number | null): number | null {
  return known(load) && known(cores) && cores > 0 ? (load / cores) * 100 : null;
}

/**
 * SPEC §2 'Server Utilization' (CPU, memory and disk gauges, network and uptime) and 'Server
 * Saturation' (load per core over 1/5/15 minutes, swap in use, memory pages swapped per
 * second), from servers/metrics/usage. Gauges are red above 80, amber above 60 (SPEC §9).
 */
export function ServerGauges({ server, scrapeIntervalSeconds }: { server: Server; scrapeIntervalSeconds?: number }) {
  const query = useQuery({ ...serverUsageQueryOptions(server._id), refetchInterval: liveRefetchMs(scrapeIntervalSeconds) });
  const u = query.data?.result;
  const windows = server.operating_system === 'windows';

  if (query.isError && !u) {
    return <LoadError title="Could not load the server’s figures." detail={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  }

  return (
    <div className="grid gap-4 xl:grid-cols-2" aria-busy={query.isPending || undefined}>
      <Card
        title="Server Utilization"
        actions={
          u && (
            <span className="text-xs text-slate-500 dark:text-slate-400" title={u.lastScrapedAt ?? undefined}>
              Updated {formatRelativeTime(u.lastScrapedAt)}
            </span>
          )
        }
      >
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          <GaugeCell label="CPU" usage={u} value={u?.cpuUsage} caption={u && known(u.cpuCores) ? `${u.cpuCores} cores` : undefined} />
          <GaugeCell label="Memory" usage={u} value={u?.memoryUsage} caption={u && known(u.memoryTotal) ? `of ${formatBytes(u.memoryTotal)}` : undefined} />
          <GaugeCell label="Disk" usage={u} value={u?.diskUsage} />
          <Figure label="Network" usage={u} text={u ? formatByteRate(u.networkUsage) : ''} />
          <Figure label="Uptime" usage={u} text={u ? formatUptime(u.uptime) : ''} />
        </div>
      </Card>
      <Card title="Server Saturation">
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          {([1, 5, 15] as const).map((m) => {
            const load = u ? u[`cpuLoad${m}`] : null;
            const share = u ? perCore(load, u.cpuCores) : null;
            return (
              <GaugeCell
                key={m}
                label={`Load ${m}m`}
                usage={u}
                value={share}
                display={known(load) ? load.toFixed(2) : '--'}
                caption={windows && u && !known(load) ? 'not on Windows' : known(share) ? `${Math.round(share)}%/core` : undefined}
              />
            );
          })}
          <GaugeCell label="Swap" usage={u} value={u?.swapUsage} caption={u && known(u.swapTotal) ? `of ${formatBytes(u.swapTotal)}` : undefined} />
          <Figure label="Memory pages swapped" usage={u} text={u ? formatChartValue(u.memorySaturation, 'pages/s') : ''} />
        </div>
      </Card>
    </div>
  );
}

function GaugeCell({ label, usage, value, display, caption }: { label: string; usage: ServerUsage | undefined; value: number | null | undefined; display?: string; caption?: string }) {
  return (
    <div className="flex flex-col items-center gap-1">
      <div className="h-24 w-full">{usage ? <Gauge label={label} value={value ?? null} display={display ?? formatPercent(value)} tone={gaugeTone(value)} caption={caption} /> : <Skeleton className="mx-auto h-full w-28 rounded-full" />}</div>
      <span className="text-xs font-medium text-slate-600 dark:text-slate-300">{label}</span>
    </div>
  );
}

/** A figure without a scale (a rate, a duration): the number, and its name under it. */
function Figure({ label, usage, text }: { label: string; usage: ServerUsage | undefined; text: string }) {
  return (
    <div className="flex flex-col items-center gap-1">
      <div className="flex h-24 w-full items-center justify-center">
        {usage ? (
          <span data-figure={label} className="text-lg font-semibold tabular-nums text-slate-800 dark:text-slate-100">
            {text}
          </span>
        ) : (
          <Skeleton className="h-6 w-20" />
        )}
      </div>
      <span className="text-center text-xs font-medium text-slate-600 dark:text-slate-300">{label}</span>
    </div>
  );
}
