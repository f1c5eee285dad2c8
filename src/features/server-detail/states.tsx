import type { ReactNode } from 'react';
import { cx } from '../../components/ui/cx';

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
