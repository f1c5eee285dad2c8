import { cx } from './cx';

export type Tone = 'ok' | 'warning' | 'error' | 'none';

const toneStroke: Record<Tone, string> = {
  ok: 'stroke-green-500',
  warning: 'stroke-amber-500',
  error: 'stroke-red-500',
  none: 'stroke-slate-400',
};
const toneFill: Record<Tone, string> = {
  ok: 'bg-green-500',
  warning: 'bg-amber-500',
  error: 'bg-red-500',
  none: 'bg-slate-400',
};
export const toneText: Record<Tone, string> = {
  ok: 'text-green-700 dark:text-green-400',
  warning: 'text-amber-700 dark:text-amber-400',
  error: 'text-red-700 dark:text-red-400',
  none: 'text-slate-500 dark:text-slate-400',
};

const SWEEP = 240;
const R = 40;
const polar = (deg: number) => {
  const rad = ((deg - 90) * Math.PI) / 180;
  return [50 + R * Math.cos(rad), 50 + R * Math.sin(rad)] as const;
};
function arc(from: number, to: number): string {
  const [x1, y1] = polar(from);
  const [x2, y2] = polar(to);
  return `M ${x1} ${y1} A ${R} ${R} 0 ${to - from > 180 ? 1 : 0} 1 ${x2} ${y2}`;
}

/**
 * A meter must carry aria-valuenow (WAI-ARIA; axe's aria-required-attr). Without a value (a
 * Windows host's load, a figure not scraped yet) there is nothing to measure: the gauge is then
 * an image named by its label and what it shows ("Load 1m: --, not on Windows").
 */
function meterAria(label: string, value: number | null, min: number, max: number, display: string, caption?: string) {
  if (value === null || !Number.isFinite(value)) return { role: 'img', 'aria-label': `${label}: ${caption ? `${display}, ${caption}` : display}` } as const;
  return { role: 'meter', 'aria-label': label, 'aria-valuemin': min, 'aria-valuemax': max, 'aria-valuenow': Math.min(max, Math.max(min, value)), 'aria-valuetext': display } as const;
}

export interface GaugeProps {
  /** The accessible name, e.g. "CPU". */
  label: string;
  /** Between min and max, or null when unknown. */
  value: number | null;
  min?: number;
  max?: number;
  /** The figure as shown, e.g. "42.5%". */
  display: string;
  tone: Tone;
  /** A second line under the figure, e.g. "of 16 GB". */
  caption?: string;
  className?: string;
}

/** A 240° arc gauge (role meter): the arc fills to the value, coloured by tone. */
export function Gauge({ label, value, min = 0, max = 100, display, tone, caption, className }: GaugeProps) {
  const share = value === null ? 0 : Math.min(1, Math.max(0, (value - min) / (max - min || 1)));
  const start = -SWEEP / 2;
  return (
    <div
      {...meterAria(label, value, min, max, display, caption)}
      data-tone={tone}
      className={cx('relative mx-auto aspect-[10/8] h-full max-h-full max-w-full', className)}
    >
      <svg viewBox="0 6 100 80" className="h-full w-full" aria-hidden>
        <path d={arc(start, start + SWEEP)} className="fill-none stroke-slate-200 dark:stroke-slate-700" strokeWidth={9} strokeLinecap="round" />
        {share > 0 && <path d={arc(start, start + SWEEP * Math.max(share, 0.005))} className={cx('fill-none', toneStroke[tone])} strokeWidth={9} strokeLinecap="round" />}
      </svg>
      <div className="absolute inset-0 flex flex-col items-center justify-center pt-1" aria-hidden>
        <span className={cx('text-lg leading-tight font-semibold tabular-nums', toneText[tone])}>{display}</span>
        {caption && <span className="text-[11px] leading-tight text-slate-500 dark:text-slate-400">{caption}</span>}
      </div>
    </div>
  );
}

/**
 * A thin bar meter with its figure, for a one-line tile (a server tab's stat row): the same
 * meter semantics as the arc, in the height of a line of text.
 */
export function MeterBar({ label, value, min = 0, max = 100, display, tone, className }: Omit<GaugeProps, 'caption'>) {
  const share = value === null ? 0 : Math.min(1, Math.max(0, (value - min) / (max - min || 1)));
  return (
    <div className={cx('flex min-w-0 flex-col items-end gap-1', className)}>
      <span className={cx('text-xl leading-tight font-semibold tabular-nums', toneText[tone])}>{display}</span>
      <div {...meterAria(label, value, min, max, display)} data-tone={tone} className="h-1.5 w-24 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
        <div className={cx('h-full rounded-full', toneFill[tone])} style={{ width: `${share * 100}%` }} />
      </div>
    </div>
  );
}

export interface BarGaugeItem {
  label: string;
  /** 0–100 (or min–max), null when unknown. */
  value: number | null;
  display: string;
  tone: Tone;
}

/** Horizontal bars, one per item (e.g. per volume), each a meter. */
export function BarGauge({ items, min = 0, max = 100, className }: { items: readonly BarGaugeItem[]; min?: number; max?: number; className?: string }) {
  return (
    <ul className={cx('flex flex-col gap-2', className)}>
      {items.map((item) => {
        const share = item.value === null ? 0 : Math.min(1, Math.max(0, (item.value - min) / (max - min || 1)));
        return (
          <li key={item.label} className="text-xs">
            <div className="mb-0.5 flex justify-between gap-2">
              <span className="truncate text-slate-600 dark:text-slate-300">{item.label}</span>
              <span className={cx('font-semibold tabular-nums', toneText[item.tone])}>{item.display}</span>
            </div>
            <div
              {...meterAria(item.label, item.value, min, max, item.display)}
              data-tone={item.tone}
              className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
            >
              <div className={cx('h-full rounded-full', toneFill[item.tone])} style={{ width: `${share * 100}%` }} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
