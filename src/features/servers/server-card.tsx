import { Link } from '@tanstack/react-router';
import type { Server } from '../../../server/contract/servers';
import { CopyButton } from '../../components/ui/copy-button';
import { Menu, type MenuAction } from '../../components/ui/menu';
import { Skeleton } from '../../components/ui/skeleton';
import { formatByteRate, formatRelativeTime, formatUptime } from '../../lib/format';
import { markedRowClass, type MarkRowProps } from '../../components/ui/marks';
import { useCommandRunner } from '../../app/command-host/run-command';
import { cx } from '../../components/ui/cx';
import { StateBadge, UsageMeter } from './server-display';
import { osLabels } from '../../../commands/server/server-fields';

export interface ServerCardProps {
  server: Server;
  now: number;
  actions: MenuAction[];
  /** Keyboard marks on the card (src/components/ui/marks.ts). */
  mark?: MarkRowProps;
}

/** SPEC §2 card: hostname, IP, OS, state, CPU/memory/disk/network usage, uptime, 'Last Updated'. */
export function ServerCard({ server, now, actions, mark }: ServerCardProps) {
  const headingId = `server-card-${server._id}`;
  const { run } = useCommandRunner();
  return (
    <article aria-labelledby={headingId} {...mark} className={cx('flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900', mark && markedRowClass)}>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={headingId} className="truncate text-base font-semibold">
            <Link to="/servers/show/$id" params={{ id: server._id }} className="rounded text-blue-700 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-blue-500 dark:text-blue-400">
              {server.hostname}
            </Link>
          </h2>
          <p className="flex items-center gap-1 text-sm text-slate-600 dark:text-slate-400">
            <span className="font-mono">{server.ipaddress}</span>
            <CopyButton value={server.ipaddress} label={`IP Address ${server.ipaddress}`} onCopy={() => run('server.copy-ip', { server: server._id }).then((r) => r !== null)} />
            <span aria-hidden>·</span>
            <span>{osLabels[server.operating_system]}</span>
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-1">
          <StateBadge state={server.state} />
          <Menu label={`Actions for ${server.hostname}`} actions={actions} />
        </div>
      </div>
      <div className="space-y-2">
        <UsageMeter label="CPU" value={server.cpuUsage} />
        <UsageMeter label="Memory" value={server.memoryUsage} />
        <UsageMeter label="Disk" value={server.diskUsage} />
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">Network</dt>
        <dd className="text-right tabular-nums">{formatByteRate(server.networkUsage)}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Uptime</dt>
        <dd className="text-right tabular-nums">{formatUptime(server.uptime)}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Last Updated</dt>
        <dd className="text-right">
          {server.lastScrapedAt ? (
            <time dateTime={server.lastScrapedAt} title={new Date(server.lastScrapedAt).toLocaleString()}>
              {formatRelativeTime(server.lastScrapedAt, now)}
            </time>
          ) : (
            '--'
          )}
        </dd>
      </dl>
    </article>
  );
}

export function ServerCardSkeleton() {
  return (
    <div aria-hidden className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
      <Skeleton className="h-5 w-40" />
      <Skeleton className="h-4 w-32" />
      <Skeleton className="h-3" />
      <Skeleton className="h-3" />
      <Skeleton className="h-3" />
      <Skeleton className="h-12" />
    </div>
  );
}
