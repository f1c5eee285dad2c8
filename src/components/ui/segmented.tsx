import { ToggleButton, ToggleButtonGroup } from 'react-aria-components';
import { cx } from './cx';

export interface SegmentedProps<K extends string> {
  'aria-label': string;
  options: readonly { value: K; label: string }[];
  /** null: none of the options is the current one (e.g. a custom range instead of a preset). */
  value: K | null;
  onChange: (value: K) => void;
  size?: 'sm' | 'md';
  className?: string;
  /** On a phone the buttons share the whole width in one row (labels shrink) instead of wrapping the group. */
  fillOnPhone?: boolean;
}

/** One-of-several buttons side by side (role radiogroup; arrow keys move, Space/Enter choose). */
export function Segmented<K extends string>({ options, value, onChange, size = 'md', className, fillOnPhone = false, ...rest }: SegmentedProps<K>) {
  return (
    <ToggleButtonGroup
      aria-label={rest['aria-label']}
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={value === null ? [] : [value]}
      onSelectionChange={(keys) => {
        const next = [...keys][0];
        if (next !== undefined && next !== value) onChange(next as K);
      }}
      className={cx('inline-flex flex-wrap rounded-md border border-slate-300 dark:border-slate-600', fillOnPhone && 'max-sm:flex max-sm:w-full max-sm:flex-nowrap', className)}
    >
      {options.map((o) => (
        <ToggleButton
          key={o.value}
          id={o.value}
          className={cx(
            'cursor-default border-l border-slate-300 text-sm whitespace-nowrap outline-none first:rounded-l-md first:border-l-0 last:rounded-r-md dark:border-slate-600',
            size === 'sm' ? 'h-8 px-2.5' : 'h-9 px-3',
            fillOnPhone && 'max-sm:min-w-0 max-sm:flex-1 max-sm:px-1 max-sm:text-xs',
            'data-[hovered]:bg-slate-100 data-[focus-visible]:relative data-[focus-visible]:ring-2 data-[focus-visible]:ring-blue-500 dark:data-[hovered]:bg-slate-800',
            'data-[selected]:bg-blue-600 data-[selected]:text-white dark:data-[selected]:bg-blue-600',
          )}
        >
          {o.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
