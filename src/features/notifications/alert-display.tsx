import { alertStatusLabels, type AlertStatus, type Severity } from '../../../server/contract/alerts';
import { cx } from '../../components/ui/cx';
import { EMPTY } from '../../lib/format';

const statusTone: Record<AlertStatus, { text: string; dot: string }> = {
  firing: { text: 'text-red-600 dark:text-red-400', dot: 'bg-red-500' },
  resolved: { text: 'text-green-700 dark:text-green-400', dot: 'bg-green-500' },
  snoozed: { text: 'text-orange-600 dark:text-orange-400', dot: 'bg-orange-500' },
};

/** SPEC §4: firing is shown red 'Active', resolved green 'Resolved'; snoozed orange. */
export function AlertStatusBadge({ status }: { status: AlertStatus }) {
  const tone = statusTone[status] ?? statusTone.snoozed;
  return (
    <span className={cx('inline-flex items-center gap-1.5 font-medium whitespace-nowrap', tone.text)}>
      <span aria-hidden className={cx('h-2 w-2 rounded-full', tone.dot)} />
      {alertStatusLabels[status] ?? status}
    </span>
  );
}

/** SPEC §4: critical is shown red; the other severities plain. */
export function SeverityText({ severity }: { severity: Severity | string }) {
  return <span className={cx('whitespace-nowrap capitalize', severity === 'critical' ? 'font-semibold text-red-600 dark:text-red-400' : 'text-slate-700 dark:text-slate-300')}>{severity}</span>;
}

export function DateTime({ value }: { value: string | null | undefined }) {
  if (!value) return <>{EMPTY}</>;
  const d = new Date(value);
  return (
    <time dateTime={value} className="whitespace-nowrap tabular-nums">
      {d.toLocaleString()}
    </time>
  );
}

/** Rule names are snake_case (high_disk_usage); people read them with spaces. */
export const alertName = (name: string) => name.replace(/_/g, ' ');
