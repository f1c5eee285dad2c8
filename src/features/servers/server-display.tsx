import { cx } from '../../components/ui/cx';
import { formatPercent, serverStateDisplay, usageTone, type Tone } from '../../lib/format';

/** Text colours with enough contrast on white and on the dark background. */
export const toneText: Record<Tone, string> = {
  green: 'text-green-700 dark:text-green-400',
  orange: 'text-orange-700 dark:text-orange-400',
  red: 'text-red-600 dark:text-red-400',
  none: 'text-slate-500 dark:text-slate-400',
};
const toneBar: Record<Tone, string> = { green: 'bg-green-500', orange: 'bg-orange-500', red: 'bg-red-500', none: 'bg-transparent' };
const toneDot: Record<Tone, string> = { green: 'bg-green-500', orange: 'bg-orange-500', red: 'bg-red-500', none: 'bg-slate-400' };

/** SPEC §2 state display: green 'Running', red 'Down', anything else orange as written. */
export function StateBadge({ state }: { state: string | null | undefined }) {
  const { label, tone } = serverStateDisplay(state);
  return (
    <span className={cx('inline-flex items-center gap-1.5 text-sm font-medium', toneText[tone])}>
      <span aria-hidden className={cx('h-2 w-2 rounded-full', toneDot[tone])} />
      {label}
    </span>
  );
}

/** A usage percentage coloured by SPEC's thresholds; '--' without a value. */
export function UsageText({ value }: { value: number | null | undefined }) {
  return <span className={cx('tabular-nums', toneText[usageTone(value)])}>{formatPercent(value)}</span>;
}

/** A card row: label, coloured figure and a thin bar. */
export function UsageMeter({ label, value }: { label: string; value: number | null | undefined }) {
  const tone = usageTone(value);
  const known = value !== null && value !== undefined && Number.isFinite(value);
  const width = known ? Math.max(0, Math.min(100, value)) : 0;
  return (
    <div>
      <div className="flex items-baseline justify-between text-sm">
        <span className="text-slate-600 dark:text-slate-400">{label}</span>
        <UsageText value={value} />
      </div>
      <div
        {...(known
          ? { role: 'meter', 'aria-label': label, 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': Math.round(value * 10) / 10, 'aria-valuetext': formatPercent(value) }
          : { 'aria-hidden': true })}
        className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div className={cx('h-full rounded-full', toneBar[tone])} style={{ width: `${width}%` }} />
      </div>
    </div>
  );
}
