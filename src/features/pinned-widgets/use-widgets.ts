import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { browserStore, parseWidgets, WIDGETS_KEY, writeWidgets, type PinnedWidget } from '../../lib/pinned-widgets';

/**
 * The pinned widgets as stored, re-read whenever the store changes (a command from the command
 * line, the drawer, another tab). The raw string is the snapshot, so an unchanged store keeps
 * the same list and the grid does not re-layout for nothing.
 */
export function useWidgets(): { widgets: PinnedWidget[]; save: (widgets: readonly PinnedWidget[]) => void } {
  const raw = useSyncExternalStore(
    browserStore.subscribe,
    () => browserStore.get(WIDGETS_KEY),
    () => null,
  );
  const widgets = useMemo(() => parseWidgets(raw), [raw]);
  const save = useCallback((next: readonly PinnedWidget[]) => writeWidgets(browserStore, next), []);
  return { widgets, save };
}
