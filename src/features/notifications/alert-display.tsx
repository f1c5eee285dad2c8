import type { Acknowledgement, AlertStatus } from '../../../server/contract/alerts';
import type { Mute } from '../../../server/contract/routing';
import { cx } from '../../components/ui/cx';
import { DateTime } from '../../lib/alert-display';
import { Icon } from '../../components/ui/icons';

/**
 * Issue 14: who acknowledged an open alert and until when ("Acknowledged by ann · until 14:00").
 * The owner's name is text a person typed: rendered as text.
 */
export function AckLine({ ack, withNote = false }: { ack: Acknowledgement | null; withNote?: boolean }) {
  if (!ack) return null;
  return (
    <span className="flex flex-col gap-0.5 text-sm text-violet-700 dark:text-violet-300" data-testid="ack-line">
      <span className="inline-flex flex-wrap items-center gap-x-1">
        <Icon name="done" />
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
      <Icon name="muted" />
      {mute.label}
    </span>
  );
}
