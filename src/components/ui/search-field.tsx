import { useEffect, useRef, useState } from 'react';
import { Input, SearchField as AriaSearchField } from 'react-aria-components';
import { inputClass } from './text-field';
import { cx } from './cx';

export interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** SPEC §9: list search boxes wait 500 ms after the last keystroke. */
  debounceMs?: number;
  className?: string;
  'aria-label'?: string;
}

/**
 * Text typed into a filter box: shown at once, committed after a pause, and following `value`
 * when it changes from elsewhere (the back button, a command) — not when it is the echo of its
 * own commit, so keys typed meanwhile are kept. The list search boxes and the History panel's filters use it.
 */
export function useDebouncedText(value: string, onCommit: (text: string) => void, debounceMs: number): [string, (text: string) => void] {
  const [text, setText] = useState(value);
  const last = useRef(value);
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === last.current) return;
    const t = setTimeout(() => {
      last.current = text;
      onCommit(text);
    }, debounceMs);
    return () => clearTimeout(t);
  }, [text, debounceMs, onCommit]);
  return [text, setText];
}

export function SearchField({ value, onChange, placeholder, debounceMs = 500, className, ...rest }: SearchFieldProps) {
  const [text, setText] = useDebouncedText(value, onChange, debounceMs);
  return (
    <AriaSearchField aria-label={rest['aria-label'] ?? placeholder} value={text} onChange={setText} className={cx('relative', className)}>
      <Input placeholder={placeholder} className={cx(inputClass, '[&::-webkit-search-cancel-button]:hidden')} />
    </AriaSearchField>
  );
}
