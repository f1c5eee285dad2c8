import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import { cx } from './cx';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'danger-ghost';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-blue-600 text-white hover:bg-blue-700 data-[pressed]:bg-blue-800',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700',
  danger: 'bg-red-600 text-white hover:bg-red-700 data-[pressed]:bg-red-800',
  ghost: 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
  'danger-ghost': 'text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950',
};

export interface ButtonProps extends Omit<AriaButtonProps, 'className'> {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  round?: boolean;
  className?: string;
  /** Why the button is disabled; shown as its tooltip. */
  disabledReason?: string | false;
}

export function Button({ variant = 'secondary', size = 'md', round, className, disabledReason, isDisabled, ...props }: ButtonProps) {
  const disabled = isDisabled || !!disabledReason;
  return (
    <span title={disabledReason || undefined} className="inline-flex">
      <AriaButton
        {...props}
        isDisabled={disabled}
        className={cx(
          'inline-flex items-center justify-center gap-1.5 font-medium whitespace-nowrap outline-none transition-colors focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-1 disabled:cursor-not-allowed disabled:opacity-50 dark:focus-visible:ring-offset-slate-900',
          round ? 'rounded-full' : 'rounded-md',
          size === 'sm' ? 'h-8 px-2.5 text-sm' : 'h-9 px-3.5 text-sm',
          round && (size === 'sm' ? 'w-8 px-0' : 'w-9 px-0'),
          variants[variant],
          className,
        )}
      />
    </span>
  );
}
