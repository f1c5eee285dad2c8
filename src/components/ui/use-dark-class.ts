import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

/**
 * Whether the page is dark now. Reads the `dark` class the app (and Ladle's theme switch) puts on
 * <html>, so canvas charts and embedded panels, which Tailwind's `dark:` cannot reach, follow it.
 */
export function useDarkClass(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => document.documentElement.classList.contains('dark'),
    () => false,
  );
}
