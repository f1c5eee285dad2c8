import { isTypingTarget } from './hotkeys';

/**
 * The command host lives in the lazily loaded app layout (the sign-in page must stay small), so
 * a Ctrl+K pressed while that chunk and whoami are still loading would be lost. This tiny module
 * is imported by the entry: it keeps the last few shortcut-looking keys until the host mounts
 * and replays them (see useCommandHotkeys). Keys older than a few seconds are dropped.
 */
export interface EarlyKey {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  at: number;
}

const MAX_AGE_MS = 3000;
let buffer: EarlyKey[] = [];
let hostReady = false;

if (typeof window !== 'undefined') {
  window.addEventListener(
    'keydown',
    (e) => {
      if (hostReady || e.repeat) return;
      const chord = e.ctrlKey || e.metaKey || e.altKey;
      if (!chord && isTypingTarget(e.target)) return;
      if (!chord && e.key.length !== 1) return;
      buffer = [...buffer.slice(-4), { key: e.key, code: e.code, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, shiftKey: e.shiftKey, at: performance.now() }];
    },
    true,
  );
}

/** Called by the host when it starts listening itself: hands over recent keys, stops buffering. */
export function takeEarlyKeys(): EarlyKey[] {
  hostReady = true;
  const now = performance.now();
  const keys = buffer.filter((k) => now - k.at < MAX_AGE_MS);
  buffer = [];
  return keys;
}

/** Called when the host unmounts (signed out): buffer again until the next one mounts. */
export function releaseEarlyKeys(): void {
  hostReady = false;
}
