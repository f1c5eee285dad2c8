import { FieldError, Input, Label, TextField as AriaTextField } from 'react-aria-components';
import { Button } from './button';
import { cx } from './cx';
import { inputClass } from './text-field';
import { Icon } from './icons';

export interface TagInputProps {
  label: string;
  tags: readonly string[];
  /** The text being typed; controlled so the caller decides what stays after an add. */
  inputValue: string;
  onInputChange: (value: string) => void;
  /** Enter in the input or the Enter button, only when the input holds something. */
  onAdd: () => void;
  onRemove: (tag: string) => void;
  placeholder?: string;
  /** Label of the add button; SPEC §4 calls it "Enter". */
  addLabel?: string;
  errorMessage?: string;
  description?: string;
  isDisabled?: boolean;
  className?: string;
}

/**
 * A list of tags with a text input that adds to it (SPEC §4: the notification group's email
 * list). Enter adds instead of submitting the surrounding form; each tag has a remove button
 * named after it, so a screen reader says "Remove ann@example.com".
 */
export function TagInput({ label, tags, inputValue, onInputChange, onAdd, onRemove, placeholder, addLabel = 'Enter', errorMessage, description, isDisabled, className }: TagInputProps) {
  const empty = inputValue.trim() === '';
  return (
    <div className={cx('flex flex-col gap-1', className)}>
      <AriaTextField
        value={inputValue}
        onChange={onInputChange}
        isDisabled={isDisabled}
        isInvalid={!!errorMessage}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return e.continuePropagation();
          // Never the form's implicit submit: Enter belongs to the tag list here.
          e.preventDefault();
          if (!empty) onAdd();
        }}
        className="flex flex-col gap-1"
      >
        <Label className="text-sm font-medium text-slate-700 dark:text-slate-300">{label}</Label>
        <div className="flex gap-2">
          <Input placeholder={placeholder} className={inputClass} />
          <Button onPress={onAdd} isDisabled={isDisabled || empty}>
            {addLabel}
          </Button>
        </div>
        <FieldError className="text-xs text-red-600 dark:text-red-400">{errorMessage}</FieldError>
      </AriaTextField>
      {description && <p className="text-xs text-slate-500 dark:text-slate-400">{description}</p>}
      {tags.length > 0 && (
        <ul aria-label={label} className="mt-1 flex flex-wrap gap-1.5">
          {tags.map((tag) => (
            <li
              key={tag}
              className="inline-flex items-center gap-1 rounded-full border border-slate-300 bg-slate-100 py-0.5 pr-0.5 pl-2.5 text-sm text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100"
            >
              <span>{tag}</span>
              <Button variant="ghost" size="sm" round aria-label={`Remove ${tag}`} isDisabled={isDisabled} onPress={() => onRemove(tag)} className="!h-5 !w-5 text-xs">
                <Icon name="close" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
