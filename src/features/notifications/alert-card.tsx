import { alertTypeLabel, type Alert } from '../../../server/contract/alerts';
import { CopyButton } from '../../components/ui/copy-button';
import { Menu, type MenuAction } from '../../components/ui/menu';
import { Skeleton } from '../../components/ui/skeleton';
import { cx } from '../../components/ui/cx';
import { markedRowClass, type MarkRowProps } from '../../components/ui/marks';
import { AlertStatusBadge, alertName, DateTime, SeverityText } from '../../lib/alert-display';
import { AckLine, MuteLine } from './alert-display';

/**
 * SPEC §2 card: status, severity, alert name, hostname, IP, type, triggered at and a 'View alert'
 * menu entry; issue 14 adds the acknowledgement and Acknowledge / Release in the menu.
 */
export function AlertCard({ alert, onView, extraActions = [], mark }: { alert: Alert; onView: (alert: Alert) => void; extraActions?: MenuAction[]; mark?: MarkRowProps }) {
  const headingId = `alert-card-${alert._id}`;
  return (
    <article aria-labelledby={headingId} {...mark} className={cx('flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900', mark && markedRowClass)}>
      <div className="flex items-start justify-between gap-2">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <AlertStatusBadge status={alert.status} />
          <SeverityText severity={alert.severity} />
        </div>
        <Menu label={`Actions for ${alertName(alert.alertname)} on ${alert.hostname}`} actions={[{ id: 'view', label: 'View alert', onAction: () => onView(alert) }, ...extraActions]} />
      </div>
      <AckLine ack={alert.acknowledgement} />
      <MuteLine mute={alert.mute} status={alert.status} />
      <h2 id={headingId} className="text-base font-semibold">
        <button type="button" onClick={() => onView(alert)} className="rounded text-left text-blue-700 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-blue-500 dark:text-blue-400">
          {alertName(alert.alertname)} · {alert.hostname}
        </button>
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">Hostname</dt>
        <dd className="text-right">{alert.hostname}</dd>
        <dt className="text-slate-600 dark:text-slate-400">IP Address</dt>
        <dd className="flex items-center justify-end gap-1 font-mono">
          {alert.instance}
          <CopyButton value={alert.instance} label={`IP Address ${alert.instance}`} />
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">Type</dt>
        <dd className="text-right">{alertTypeLabel(alert.type)}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Triggered At</dt>
        <dd className="text-right">
          <DateTime value={alert.createdAt} />
        </dd>
      </dl>
    </article>
  );
}

export function AlertCardSkeleton() {
  return (
    <div aria-hidden className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
      <Skeleton className="h-4 w-32" />
      <Skeleton className="h-5 w-48" />
      <Skeleton className="h-16" />
    </div>
  );
}
