import { useBlocker } from '@tanstack/react-router';

/** SPEC §2: forms warn about unsaved changes, on in-app navigation and on leaving the page. */
export function useUnsavedChanges(dirty: boolean): void {
  useBlocker({
    shouldBlockFn: () => dirty && !window.confirm('You have unsaved changes. Leave anyway?'),
    enableBeforeUnload: () => dirty,
    disabled: !dirty,
  });
}
