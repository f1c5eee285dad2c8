import { Button, ComboBox as AriaComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { inputClass } from './text-field';
import { cx } from './cx';
import { Icon } from './icons';

export interface ComboBoxItem {
  id: string;
  label: string;
  description?: string;
}

export interface ComboBoxProps {
  label?: string;
  'aria-label'?: string;
  placeholder?: string;
  /** What is typed; the caller searches with it (debounced) and passes the matches as items. */
  inputValue: string;
  onInputChange: (text: string) => void;
  items: readonly ComboBoxItem[];
  onSelect: (id: string) => void;
  /** The chosen item, for a box that shows its choice (a form field); null (the default) for a box that only picks. */
  selectedKey?: string | null;
  isLoading?: boolean;
  emptyText?: string;
  isDisabled?: boolean;
  className?: string;
}

/** A text box with a list of matches fetched by the caller (role combobox); choosing one calls onSelect. */
export function ComboBox({ label, placeholder, inputValue, onInputChange, items, onSelect, selectedKey = null, isLoading, emptyText = 'No matches', isDisabled, className, ...rest }: ComboBoxProps) {
  return (
    <AriaComboBox
      aria-label={rest['aria-label']}
      inputValue={inputValue}
      onInputChange={onInputChange}
      items={items}
      selectedKey={selectedKey}
      onSelectionChange={(key) => key !== null && onSelect(String(key))}
      menuTrigger="focus"
      allowsEmptyCollection
      isDisabled={isDisabled}
      className={cx('flex flex-col gap-1', className)}
    >
      {label && <Label className="text-sm font-medium text-slate-700 dark:text-slate-300">{label}</Label>}
      <div className="relative">
        <Input placeholder={placeholder} className={cx(inputClass, 'pr-8')} />
        <Button aria-label="Show options" className="absolute inset-y-0 right-0 flex w-8 items-center justify-center text-slate-400 outline-none">
          <Icon name="chevronDown" />
        </Button>
      </div>
      <Popover className="max-h-72 min-w-(--trigger-width) overflow-y-auto rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <ListBox<ComboBoxItem> className="outline-none" renderEmptyState={() => <p className="px-2 py-1.5 text-sm text-slate-500 dark:text-slate-400">{isLoading ? 'Loading…' : emptyText}</p>}>
          {(item) => (
            <ListBoxItem
              id={item.id}
              textValue={item.label}
              className="cursor-default rounded px-2 py-1.5 text-sm outline-none data-[focused]:bg-blue-50 dark:data-[focused]:bg-slate-800"
            >
              <span className="block truncate">{item.label}</span>
              {item.description && <span className="block truncate text-xs text-slate-500 dark:text-slate-400">{item.description}</span>}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}
