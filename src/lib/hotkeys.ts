/**
 * Matches registry shortcuts ("mod+k", "alt+1", "?", ":") against key events. Hand-written:
 * react-hotkeys-hook matches key codes, which cannot express layout-produced keys like ":" and
 * "?", and the registry needs one matcher for all of them.
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

const isMac = typeof navigator !== 'undefined' && /mac|iphone|ipad/i.test(navigator.platform);

export function matchesShortcut(e: KeyboardEvent, shortcut: string): boolean {
  const s = parseShortcut(shortcut);
  const mod = isMac ? e.metaKey : e.ctrlKey;
  if (s.mod !== mod || s.alt !== e.altKey) return false;
  // Printable symbols (":", "?") already include Shift in the key they produce.
  const symbol = s.key.length === 1 && !/[a-z0-9]/.test(s.key);
  if (!symbol && s.shift !== e.shiftKey) return false;
  const key = e.key.toLowerCase();
  // With Alt, macOS produces other characters: fall back to the physical key.
  const code = e.code.replace(/^Key|^Digit/, '').toLowerCase();
  return key === s.key || (!symbol && code === s.key);
}

/** Human label: "Ctrl+K" / "⌘K". */
export function shortcutLabel(shortcut: string): string {
  const s = parseShortcut(shortcut);
  const parts: string[] = [];
  if (s.mod) parts.push(isMac ? '⌘' : 'Ctrl');
  if (s.alt) parts.push(isMac ? '⌥' : 'Alt');
  if (s.shift) parts.push('Shift');
  parts.push(s.key.length === 1 ? s.key.toUpperCase() : s.key);
  return parts.join('+');
}

/** Single-key shortcuts must not fire while the person types into a field. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT';
}

/** The same key as `aria-keyshortcuts` spells it ("Alt+1", "Control+K", "Shift+?"). */
export function ariaKeyshortcuts(shortcut: string | undefined): string | undefined {
  if (!shortcut) return undefined;
  const s = parseShortcut(shortcut);
  const parts: string[] = [];
  if (s.mod) parts.push(isMac ? 'Meta' : 'Control');
  if (s.alt) parts.push('Alt');
  if (s.shift) parts.push('Shift');
  parts.push(s.key.length === 1 ? s.key.toUpperCase() : s.key);
  return parts.join('+');
}
