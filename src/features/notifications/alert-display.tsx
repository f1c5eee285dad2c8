import { alertStatusLabels, type Acknowledgement, type AlertStatus, type Severity } from '../../../server/contract/alerts';
import type { Mute } from '../../../server/contract/routing';
import { cx } from '../../components/ui/cx';
import { EMPTY } from '../../lib/format';

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

/**
 * Issue 14: who acknowledged an open alert and until when ("Acknowledged by ann · until 14:00").
 * The owner's name is text a person typed: rendered as text.
 */
export function AckLine({ ack, withNote = false }: { ack: Acknowledgement | null; withNote?: boolean }) {
  if (!ack) return null;
  return (
    <span className="flex flex-col gap-0.5 text-sm text-violet-700 dark:text-violet-300" data-testid="ack-line">
      <span className="inline-flex flex-wrap items-center gap-x-1">
        <span aria-hidden>✓</span>
        <span>
          Acknowledged by <strong className="font-semibold">{ack.by.username}</strong>
        </span>
        <span className="text-slate-600 dark:text-slate-400">· {ack.until ? <>until <DateTime value={ack.until} /></> : 'until it resolves'}</span>
      </span>
      {withNote && ack.note && <span className="text-slate-700 dark:text-slate-300">“{ack.note}”</span>}
    </span>
  );
}

const muteTone: Record<Mute['reason'], string> = {
  maintenance: 'text-sky-700 dark:text-sky-300',
  silenced: 'text-slate-600 dark:text-slate-300',
  host_down: 'text-amber-700 dark:text-amber-300',
  flapping: 'text-fuchsia-700 dark:text-fuchsia-300',
};

/**
 * Issue 14: why an open alert notifies nobody now — "Silenced by ann", "In maintenance: Sunday
 * patching", "Suppressed: host down", "Flapping". Names come from people (silence creators,
 * window names): rendered as text.
 */
export function MuteLine({ mute, status }: { mute: Mute | null; status: AlertStatus }) {
  if (!mute || status === 'resolved') return null;
  return (
    <span className={cx('inline-flex items-center gap-1 text-sm', muteTone[mute.reason])} data-testid="mute-line">
      <span aria-hidden>🔕</span>
      {mute.label}
    </span>
  );
}
