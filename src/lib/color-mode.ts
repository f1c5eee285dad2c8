/** SPEC §2: the choice is kept in localStorage `colorMode`; without one, follow the system. */
const KEY = 'colorMode';

export type ColorMode = 'light' | 'dark';

export function getColorMode(): ColorMode {
  const stored = localStorage.getItem(KEY);
  if (stored === 'light' || stored === 'dark') return stored;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

const listeners = new Set<(mode: ColorMode) => void>();

export function setColorMode(mode: ColorMode): void {
  localStorage.setItem(KEY, mode);
  document.documentElement.classList.toggle('dark', mode === 'dark');
  listeners.forEach((l) => l(mode));
}

export function onColorModeChange(listener: (mode: ColorMode) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
