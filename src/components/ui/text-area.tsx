import { FieldError, Label, TextArea as AriaTextArea, TextField as AriaTextField, type TextFieldProps as AriaTextFieldProps } from 'react-aria-components';
import { cx } from './cx';

export interface TextAreaProps extends Omit<AriaTextFieldProps, 'className'> {
  label?: string;
  placeholder?: string;
  errorMessage?: string;
  rows?: number;
  className?: string;
}

/** A multi-line text field (notes, descriptions), labelled and with its error like TextField. */
export function TextArea({ label, placeholder, errorMessage, rows = 4, className, ...props }: TextAreaProps) {
  return (
    <AriaTextField {...props} isInvalid={props.isInvalid ?? !!errorMessage} className={cx('flex flex-col gap-1', className)}>
      {label && <Label className="text-sm font-medium text-slate-700 dark:text-slate-300">{label}</Label>}
      <AriaTextArea
        rows={rows}
        placeholder={placeholder}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 outline-none placeholder:text-slate-500 dark:placeholder:text-slate-400 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 data-[invalid]:border-red-500 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      />
      <FieldError className="text-xs text-red-600 dark:text-red-400">{errorMessage}</FieldError>
    </AriaTextField>
  );
}
