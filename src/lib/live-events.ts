import type { LiveMessage } from '../api/live';

/**
 * Changes pushed on the tab's live stream, for the few parts that do more than refetch: the
 * shell's alert toast, a report whose window ends "now" (it moves its end forward).
 */
type Listener = (message: LiveMessage) => void;
const listeners = new Set<Listener>();

export function onLiveMessage(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitLiveMessage(message: LiveMessage): void {
  for (const l of listeners) {
    try {
      l(message);
    } catch (error) {
      console.error(error);
    }
  }
}
