import { Checkbox as AriaCheckbox, type CheckboxProps as AriaCheckboxProps } from 'react-aria-components';
import { cx } from './cx';

export interface CheckboxProps extends Omit<AriaCheckboxProps, 'className' | 'children'> {
  children?: React.ReactNode;
  className?: string;
}

/** A labelled checkbox; the label is part of the click target. */
export function Checkbox({ children, className, ...props }: CheckboxProps) {
  return (
    <AriaCheckbox {...props} className={cx('group inline-flex cursor-default items-start gap-2 text-sm outline-none data-[disabled]:opacity-50', className)}>
      <span
        aria-hidden
        className="mt-0.5 flex h-4 w-4 shrink-0 items-center justify-center rounded border border-slate-400 bg-white text-white transition-colors group-data-[selected]:border-blue-600 group-data-[selected]:bg-blue-600 group-data-[focus-visible]:ring-2 group-data-[focus-visible]:ring-blue-500 group-data-[focus-visible]:ring-offset-1 group-data-[invalid]:border-red-500 dark:border-slate-500 dark:bg-slate-900 dark:group-data-[selected]:bg-blue-500 dark:group-data-[focus-visible]:ring-offset-slate-900"
      >
        <svg viewBox="0 0 12 10" className="hidden h-2.5 w-3 fill-none stroke-current stroke-2 group-data-[selected]:block">
          <polyline points="1 5 4.5 8.5 11 1.5" />
        </svg>
      </span>
      {children}
    </AriaCheckbox>
  );
}
