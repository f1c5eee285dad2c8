import { useEffect, useState } from 'react';

/** SPEC §9: a choice box asks for its options 300 ms after the last key. */
export const OPTION_DEBOUNCE_MS = 300;

/** `value` once it has stayed the same for `ms`; the first value at once. */
export function useDebouncedValue<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}
