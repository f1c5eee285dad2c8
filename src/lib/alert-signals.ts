import { localStore } from './web-storage';

/**
 * Per person (in this browser, as recents are): whether a new critical alert also plays a sound
 * and shows a browser notification (issue 24 §2). Both off until the person turns them on in
 * Account Settings; the toast is always shown.
 */
export interface AlertSignals {
  sound: boolean;
  notify: boolean;
}

const key = (userId: string) => `opsdeck.alert-signals.${userId}`;
const listeners = new Set<() => void>();
const cache = new Map<string, AlertSignals>();

export function readAlertSignals(userId: string): AlertSignals {
  const hit = cache.get(userId);
  if (hit) return hit;
  let value: AlertSignals = { sound: false, notify: false };
  try {
    const stored = JSON.parse(localStore.get(key(userId)) ?? 'null') as Partial<AlertSignals> | null;
    if (stored) value = { sound: stored.sound === true, notify: stored.notify === true };
  } catch {
    // Unreadable: both off.
  }
  cache.set(userId, value);
  return value;
}

export function writeAlertSignals(userId: string, value: AlertSignals): void {
  cache.set(userId, value);
  localStore.set(key(userId), JSON.stringify(value));
  for (const l of listeners) l();
}

export function subscribeAlertSignals(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A short two-tone chime through Web Audio (no sound file to ship). */
export function playAlertSound(): void {
  try {
    const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    const ctx = new Ctx();
    const gain = ctx.createGain();
    gain.gain.value = 0.08;
    gain.connect(ctx.destination);
    [880, 660].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = freq;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.18);
      osc.stop(ctx.currentTime + i * 0.18 + 0.15);
    });
    setTimeout(() => void ctx.close(), 800);
  } catch {
    // No audio here: the toast is enough.
  }
}
