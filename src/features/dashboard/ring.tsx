import { ringShare } from '../../lib/dashboard-format';

export interface RingProps {
  /** What the ring is, for screen readers: "Running instances". */
  label: string;
  part: number | null | undefined;
  total: number | null | undefined;
  /** The text in the middle ("7/10", "1.5k"). */
  text: string;
  tone: 'green' | 'red';
}

const tones = { green: 'stroke-green-500', red: 'stroke-red-500' } as const;
const R = 42;
const C = 2 * Math.PI * R;

/** A progress ring drawn as one SVG circle: a chart library would cost more than the card. */
export function Ring({ label, part, total, text, tone }: RingProps) {
  const share = ringShare(part, total);
  return (
    <div role="img" aria-label={`${label}: ${text}`} className="relative size-28 shrink-0">
      <svg viewBox="0 0 100 100" className="size-full -rotate-90">
        <circle cx="50" cy="50" r={R} fill="none" strokeWidth="10" className="stroke-slate-200 dark:stroke-slate-700" />
        <circle
          cx="50"
          cy="50"
          r={R}
          fill="none"
          strokeWidth="10"
          strokeLinecap={share > 0 ? 'round' : 'butt'}
          strokeDasharray={`${share * C} ${C}`}
          className={tones[tone]}
          data-share={share.toFixed(3)}
        />
      </svg>
      <span className="absolute inset-0 flex items-center justify-center text-lg font-semibold tabular-nums">{text}</span>
    </div>
  );
}
