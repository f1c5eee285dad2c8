import { useSyncExternalStore } from 'react';
import { connectionState, subscribeConnection, type ConnectionState } from './connection-state';

export const useConnection = (): ConnectionState => useSyncExternalStore(subscribeConnection, connectionState);

/** `ms` while the live stream is closed, `false` while it is open (its events refetch instead of a timer). */
export function useLiveInterval(ms: number): number | false {
  return useConnection().streaming ? false : ms;
}
