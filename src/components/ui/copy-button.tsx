import { useEffect, useState } from 'react';
import { Button } from './button';

export interface CopyButtonProps {
  /** The text put on the clipboard. */
  value: string;
  /** What is copied, for the accessible name: "Copy IP Address 10.0.0.1". */
  label: string;
  /** Copies through a command instead (server.copy-ip): resolves whether it copied. */
  onCopy?: () => Promise<boolean>;
}

/** A small button that copies a value and says so for a moment (SPEC's "copyable" cells). */
export function CopyButton({ value, label, onCopy }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(t);
  }, [state]);
  const copy = async () => {
    try {
      if (onCopy) {
        setState((await onCopy()) ? 'copied' : 'failed');
        return;
      }
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // Clipboard access needs a secure context (https or localhost) and permission.
      setState('failed');
    }
  };
  return (
    <>
      <Button variant="ghost" size="sm" className="h-6 px-1.5 text-xs" aria-label={`Copy ${label}`} onPress={() => void copy()}>
        {state === 'copied' ? (
          <svg aria-hidden viewBox="0 0 16 16" className="h-3.5 w-3.5 fill-none stroke-current stroke-2 text-green-600 dark:text-green-400">
            <polyline points="3 8.5 6.5 12 13 4.5" />
          </svg>
        ) : state === 'failed' ? (
          <span aria-hidden className="text-red-600 dark:text-red-400">!</span>
        ) : (
          // Two overlapping sheets: the usual "copy" picture, drawn so no icon font is needed.
          <svg aria-hidden viewBox="0 0 16 16" className="h-3.5 w-3.5 fill-none stroke-current stroke-[1.5]">
            <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
            <path d="M10.5 3.5v-0.5a1.5 1.5 0 0 0-1.5-1.5h-5a1.5 1.5 0 0 0-1.5 1.5v5a1.5 1.5 0 0 0 1.5 1.5h0.5" />
          </svg>
        )}
      </Button>
      <span role="status" className="sr-only">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy' : ''}
      </span>
    </>
  );
}
