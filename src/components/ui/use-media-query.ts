import { useCallback, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now; re-renders when it starts or stops matching. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const m = window.matchMedia(query);
      m.addEventListener('change', onChange);
      return () => m.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}

/** SPEC §2's extra-small screens (below Tailwind's `sm`): lists there always show cards. */
export const PHONE_QUERY = '(max-width: 639px)';

export function useIsPhone(): boolean {
  return useMediaQuery(PHONE_QUERY);
}
