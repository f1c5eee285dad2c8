import type { Check } from '../../../server/contract/checks';
import { cx } from '../../components/ui/cx';
import { checkStateDisplay, formatUptimeShare, uptimeTone } from '../../lib/check-format';
import type { Tone } from '../../lib/format';

export const toneText: Record<Tone, string> = {
  green: 'text-green-700 dark:text-green-400',
  orange: 'text-orange-700 dark:text-orange-400',
  red: 'text-red-600 dark:text-red-400',
  none: 'text-slate-500 dark:text-slate-400',
};
const toneDot: Record<Tone, string> = { green: 'bg-green-500', orange: 'bg-orange-500', red: 'bg-red-500', none: 'bg-slate-400' };

/** Up (green), Down (red), Paused / Not run yet (grey), as the servers list shows Running and Down. */
export function CheckStateBadge({ check }: { check: Pick<Check, 'state' | 'paused'> }) {
  const { label, tone } = checkStateDisplay(check);
  return (
    <span className={cx('inline-flex items-center gap-1.5 text-sm font-medium whitespace-nowrap', toneText[tone])} data-testid="check-state">
      <span aria-hidden className={cx('h-2 w-2 rounded-full', toneDot[tone])} />
      {label}
    </span>
  );
}

export function UptimeText({ value }: { value: number | null }) {
  return <span className={cx('tabular-nums', toneText[uptimeTone(value)])}>{formatUptimeShare(value)}</span>;
}

const barTone: Record<Tone, string> = { green: 'bg-green-500', orange: 'bg-orange-400', red: 'bg-red-500', none: 'bg-slate-200 dark:bg-slate-700' };

/** 90 days of uptime, one bar a day (oldest left); each bar says its day and share for pointer and screen reader. */
export function UptimeBars({ days }: { days: { day: string; uptime: number | null; total: number }[] }) {
  return (
    <div>
      <ol className="flex h-8 items-stretch gap-px" aria-label={`Uptime per day over the last ${days.length} days`}>
        {days.map((d) => {
          const text = `${d.day}: ${d.uptime === null ? 'no results' : `${formatUptimeShare(d.uptime)} up (${d.total} results)`}`;
          return <li key={d.day} title={text} aria-label={text} className={cx('min-w-0 flex-1 rounded-sm', barTone[uptimeTone(d.uptime)])} />;
        })}
      </ol>
      <div className="mt-1 flex justify-between text-xs text-slate-500 dark:text-slate-400">
        <span>{days.length} days ago</span>
        <span>Today</span>
      </div>
    </div>
  );
}
