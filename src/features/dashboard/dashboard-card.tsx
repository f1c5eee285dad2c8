import { useId, type ReactNode } from 'react';
import { cx } from '../../components/ui/cx';
import { Select } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { thresholdOptions, type DashboardCard as CardName, type ThresholdValue } from '../../lib/dashboard-view';
import { RefreshButton } from '../../components/ui/refresh-button';

/**
 * SPEC §2: card widths on the 24-column grid (from md up); phones stack them in one column,
 * where the 24 columns' 23 gaps alone (368 px) were wider than the screen.
 */
const spans = {
  6: 'md:col-span-12 xl:col-span-6',
  12: 'md:col-span-24 xl:col-span-12',
  24: 'md:col-span-24',
} as const;

export interface DashboardCardProps {
  title: string;
  span: keyof typeof spans;
  /** Fetching (first load or a refresh): the refresh button is disabled meanwhile. */
  busy: boolean;
  /** The card the refresh button names to dashboard.refresh. */
  card: CardName;
  /** High-usage cards: the "above N" choice. */
  threshold?: { value: number; onChange: (v: ThresholdValue) => void };
  children: ReactNode;
}

/** One dashboard card: title, threshold choice, round refresh button, body. */
export function DashboardCard({ title, span, busy, card, threshold, children }: DashboardCardProps) {
  const headingId = useId();
  return (
    <article
      aria-labelledby={headingId}
      data-span={span}
      className={cx('flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900', spans[span])}
    >
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          {title}
        </h2>
        <div className="flex items-center gap-2">
          {threshold && (
            <Select<ThresholdValue>
              aria-label={`${title} threshold`}
              className="w-32"
              value={String(threshold.value) as ThresholdValue}
              options={thresholdOptions}
              onChange={threshold.onChange}
            />
          )}
          <RefreshButton command="dashboard.refresh" input={{ card }} round size="sm" aria-label={`Refresh ${title}`} spinning={busy} isDisabled={busy} />
        </div>
      </header>
      {children}
    </article>
  );
}

/** The card body for a failed load: what went wrong and that the refresh button retries. */
export function CardError({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'Could not load this card.';
  return (
    <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
      {message} Use the refresh button to try again.
    </p>
  );
}

export function CardEmpty({ children }: { children: ReactNode }) {
  return <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{children}</p>;
}

export function CardSkeleton({ rows = 3 }: { rows?: number }) {
  return (
    <div aria-busy="true" aria-label="Loading" className="flex flex-col gap-2">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-5 w-full" />
      ))}
    </div>
  );
}
