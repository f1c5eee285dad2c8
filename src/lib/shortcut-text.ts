/**
 * A declared key as text: the registry declares keys in react-hotkeys-hook's syntax ("mod+k",
 * "alt+arrow", a produced symbol bare), and the labels (palette, "?" overview, notices, buttons)
 * and `aria-keyshortcuts` are read from that one string. Matching presses is the command host's
 * (src/app/command-host/hotkeys.ts); this is only the wording, so the kit's buttons can say it too.
 */

export interface ParsedShortcut {
  key: string;
  mod: boolean;
  alt: boolean;
  shift: boolean;
}

export function parseShortcut(shortcut: string): ParsedShortcut {
  const parts = shortcut.toLowerCase().split('+');
  const key = parts.pop() ?? '';
  return { key, mod: parts.includes('mod') || parts.includes('ctrl') || parts.includes('meta'), alt: parts.includes('alt'), shift: parts.includes('shift') };
}

// react-hotkeys-hook's own test for "mod" = ⌘, so a label never names another key than the one matched.
export const isMac = typeof navigator !== 'undefined' && /mac/i.test(navigator.userAgent) && !/iphone|ipad|ipod/i.test(navigator.userAgent);

const ARROWS = ['arrowleft', 'arrowright', 'arrowup', 'arrowdown'] as const;

/** The concrete hotkeys one declaration stands for ("alt+arrow" is four). */
export function expandShortcut(shortcut: string): string[] {
  const s = shortcut.trim().toLowerCase();
  const parts = s.split('+');
  if (parts[parts.length - 1] !== 'arrow') return [s];
  const mods = parts.slice(0, -1);
  return ARROWS.map((a) => [...mods, a].join('+'));
}

const keyNames: Record<string, string> = { space: 'Space', escape: 'Esc', esc: 'Esc', enter: 'Enter', arrow: 'Arrow', arrowleft: '←', arrowright: '→', arrowup: '↑', arrowdown: '↓', tab: 'Tab', backspace: 'Backspace' };
const keyLabel = (key: string) => keyNames[key] ?? (key.length === 1 ? key.toUpperCase() : key.charAt(0).toUpperCase() + key.slice(1));

/** Human label: "Ctrl+K" / "⌘K", "Alt+Shift+Arrow", "Shift+Space", "?". */
export function shortcutLabel(shortcut: string): string {
  const s = parseShortcut(shortcut);
  const parts: string[] = [];
  if (s.mod) parts.push(isMac ? '⌘' : 'Ctrl');
  if (s.alt) parts.push(isMac ? '⌥' : 'Alt');
  if (s.shift) parts.push('Shift');
  parts.push(keyLabel(s.key));
  return parts.join('+');
}

const ariaNames: Record<string, string> = { space: 'Space', escape: 'Escape', esc: 'Escape', enter: 'Enter', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight', arrowup: 'ArrowUp', arrowdown: 'ArrowDown' };

/** The same key as `aria-keyshortcuts` spells it ("Alt+1", "Control+K", "Shift+?"). */
export function ariaKeyshortcuts(shortcut: string | undefined): string | undefined {
  if (!shortcut) return undefined;
  return expandShortcut(shortcut)
    .map((one) => {
      const s = parseShortcut(one);
      const parts: string[] = [];
      if (s.mod) parts.push(isMac ? 'Meta' : 'Control');
      if (s.alt) parts.push('Alt');
      if (s.shift) parts.push('Shift');
      parts.push(ariaNames[s.key] ?? (s.key.length === 1 ? s.key.toUpperCase() : s.key));
      return parts.join('+');
    })
    .join(' ');
}
