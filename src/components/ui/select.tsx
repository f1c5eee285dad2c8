import { Button, FieldError, Label, ListBox, ListBoxItem, Popover, Select as AriaSelect, SelectValue } from 'react-aria-components';
import { cx } from './cx';
import { Icon } from './icons';

export interface SelectProps<T extends string> {
  label?: string;
  placeholder?: string;
  options: readonly { value: T; label: string }[];
  value: T | null;
  onChange: (value: T) => void;
  errorMessage?: string;
  isRequired?: boolean;
  className?: string;
  'aria-label'?: string;
}

export function Select<T extends string>({ label, placeholder, options, value, onChange, errorMessage, isRequired, className, ...rest }: SelectProps<T>) {
  return (
    <AriaSelect
      aria-label={rest['aria-label']}
      placeholder={placeholder}
      selectedKey={value}
      onSelectionChange={(k) => k !== null && onChange(k as T)}
      isRequired={isRequired}
      isInvalid={!!errorMessage}
      className={cx('flex flex-col gap-1', className)}
    >
      {label && <Label className="text-sm font-medium text-slate-700 dark:text-slate-300">{label}</Label>}
      <Button className="flex h-9 items-center justify-between rounded-md border border-slate-300 bg-white px-3 text-left text-sm outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:border-slate-600 dark:bg-slate-900">
        <SelectValue className="truncate data-[placeholder]:text-slate-500 dark:data-[placeholder]:text-slate-400" />
        <Icon name="chevronDown" className="ml-2 text-slate-400" />
      </Button>
      <FieldError className="text-xs text-red-600 dark:text-red-400">{errorMessage}</FieldError>
      <Popover className="min-w-(--trigger-width) rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <ListBox className="outline-none">
          {options.map((o) => (
            <ListBoxItem
              key={o.value}
              id={o.value}
              textValue={o.label}
              className="cursor-default rounded px-2 py-1.5 text-sm outline-none data-[focused]:bg-blue-50 data-[selected]:font-semibold dark:data-[focused]:bg-slate-800"
            >
              {o.label}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
