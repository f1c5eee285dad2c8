import { Switch as AriaSwitch, type SwitchProps as AriaSwitchProps } from 'react-aria-components';
import { cx } from './cx';

export interface SwitchProps extends Omit<AriaSwitchProps, 'className' | 'children'> {
  children?: React.ReactNode;
  className?: string;
}

export function Switch({ children, className, ...props }: SwitchProps) {
  return (
    <AriaSwitch {...props} className={cx('group inline-flex cursor-default items-center gap-2 text-sm outline-none', className)}>
      <span className="flex h-5 w-9 shrink-0 items-center rounded-full bg-slate-300 p-0.5 transition-colors group-data-[selected]:bg-blue-600 group-data-[focus-visible]:ring-2 group-data-[focus-visible]:ring-blue-500 group-data-[disabled]:opacity-50 dark:bg-slate-600">
        <span className="h-4 w-4 rounded-full bg-white shadow transition-transform group-data-[selected]:translate-x-4" />
      </span>
      {children}
    </AriaSwitch>
  );
}
