import { FieldError, Input, Label, TextField as AriaTextField, type TextFieldProps as AriaTextFieldProps } from 'react-aria-components';
import { cx } from './cx';

export const inputClass =
  'h-9 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 outline-none placeholder:text-slate-500 dark:placeholder:text-slate-400 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 disabled:bg-slate-100 disabled:text-slate-500 data-[invalid]:border-red-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:disabled:bg-slate-800';

export interface TextFieldProps extends Omit<AriaTextFieldProps, 'className'> {
  label?: string;
  placeholder?: string;
  errorMessage?: string;
  className?: string;
  inputClassName?: string;
}

export function TextField({ label, placeholder, errorMessage, className, inputClassName, ...props }: TextFieldProps) {
  return (
    <AriaTextField {...props} isInvalid={props.isInvalid ?? !!errorMessage} className={cx('flex flex-col gap-1', className)}>
      {label && <Label className="text-sm font-medium text-slate-700 dark:text-slate-300">{label}</Label>}
      <Input placeholder={placeholder} className={cx(inputClass, inputClassName)} />
      <FieldError className="text-xs text-red-600 dark:text-red-400">{errorMessage}</FieldError>
    </AriaTextField>
  );
}
