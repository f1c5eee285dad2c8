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

export function SearchField({ value, onChange, placeholder, debounceMs = 500, className, ...rest }: SearchFieldProps) {
  const [text, setText] = useState(value);
  const last = useRef(value);
  useEffect(() => {
    // Follow the URL when it changes from elsewhere (back button, a command).
    if (value !== last.current) {
      last.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === last.current) return;
    const t = setTimeout(() => {
      last.current = text;
      onChange(text);
    }, debounceMs);
    return () => clearTimeout(t);
  }, [text, debounceMs, onChange]);
  return (
    <AriaSearchField aria-label={rest['aria-label'] ?? placeholder} value={text} onChange={setText} className={cx('relative', className)}>
      <Input placeholder={placeholder} className={cx(inputClass, '[&::-webkit-search-cancel-button]:hidden')} />
    </AriaSearchField>
  );
}
