import { Fragment } from 'react';
import { alertStatusLabels, type AlertStatus, type Severity } from '../../server/contract/alerts';
import { cx } from '../components/ui/cx';
import { EMPTY } from './format';

/**
 * How an alert's fields read on every screen that lists alerts (the Notifications screen and the
 * dashboard's Instance Down card), so the two cannot drift: features do not import each other.
 */

const statusTone: Record<AlertStatus, { text: string; dot: string }> = {
  firing: { text: 'text-red-600 dark:text-red-400', dot: 'bg-red-500' },
  resolved: { text: 'text-green-700 dark:text-green-400', dot: 'bg-green-500' },
  snoozed: { text: 'text-orange-700 dark:text-orange-400', dot: 'bg-orange-500' },
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

/**
 * A moment in the reader's locale. `stacked` puts the time under the date: in a table column
 * that halves its width (issue 13: every table fits at 1280 px without clipping its actions).
 */
export function DateTime({ value, stacked = false }: { value: string | null | undefined; stacked?: boolean }) {
  if (!value) return <>{EMPTY}</>;
  const d = new Date(value);
  if (stacked) {
    return (
      <time dateTime={value} title={d.toLocaleString()} className="inline-flex flex-col tabular-nums">
        <span className="whitespace-nowrap">{d.toLocaleDateString()}</span>
        <span className="whitespace-nowrap text-slate-600 dark:text-slate-400">{d.toLocaleTimeString()}</span>
      </time>
    );
  }
  return (
    <time dateTime={value} className="whitespace-nowrap tabular-nums">
      {d.toLocaleString()}
    </time>
  );
}

/** Rule names are snake_case (high_disk_usage); people read them with spaces. */
export const alertName = (name: string) => name.replace(/_/g, ' ');

/**
 * A hostname that may break after its dots (and, as any text, after its hyphens) but not inside
 * a label: "win-iis-01." over "corp.example.com", so a long FQDN does not widen its table.
 */
export function Hostname({ name, className }: { name: string; className?: string }) {
  const parts = name.split(/(?<=\.)/);
  return (
    <span className={className}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
