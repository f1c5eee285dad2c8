import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { cx } from '../../components/ui/cx';

/** A failed load: what failed, the server's message, and Retry (STYLE: the caller decides). */
export function ErrorBox({ title, detail, onRetry, retrying, compact }: { title: string; detail?: string; onRetry?: () => void; retrying?: boolean; compact?: boolean }) {
  return (
    <div
      role="alert"
      className={cx(
        'flex flex-wrap items-center gap-3 rounded-md border border-red-300 bg-red-50 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200',
        compact ? 'p-2' : 'p-3',
      )}
    >
      <span className="mr-auto">
        <strong>{title}</strong> {detail}
      </span>
      {onRetry && (
        <Button size="sm" onPress={onRetry} isDisabled={retrying}>
          Retry
        </Button>
      )}
    </div>
  );
}

/** A section card with a heading. */
export function Card({ title, actions, children, className, headingLevel = 2 }: { title: ReactNode; actions?: ReactNode; children: ReactNode; className?: string; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className={cx('rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900', className)}>
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <H className={cx('mr-auto font-semibold', headingLevel === 2 ? 'text-base' : 'text-sm')}>{title}</H>
        {actions}
      </div>
      {children}
    </section>
  );
}
