import { useCallback, useMemo, useRef } from 'react';
import { useHotkeys, type HotkeyCallback, type Options } from 'react-hotkeys-hook';
import { expandShortcut, isMac, parseShortcut } from '../../lib/shortcut-text';

export { ariaKeyshortcuts, expandShortcut, parseShortcut, shortcutLabel, type ParsedShortcut } from '../../lib/shortcut-text';

type HotkeysEvent = Parameters<HotkeyCallback>[1];

/**
 * The one adapter between declared keys and react-hotkeys-hook (v5). Keys are declared once, in
 * the registry (a command's `shortcut`, or `screenKeys.keys` for keys a screen binds where they
 * apply), in react-hotkeys-hook's syntax: "mod+k", "alt+1", "alt+shift+arrow", "space", and
 * produced symbols such as ":", "?", "[" written bare. The handlers (`useShortcuts`), the labels
 * (`shortcutLabel`, palette, "?" overview, notices) and `aria-keyshortcuts` all read that string.
 *
 * How a key is matched:
 * - A produced symbol (one character that is not a letter or digit) matches the character the
 *   layout produced (`useKey`), whatever Shift or AltGr it took: ":" is Shift+; on a US layout,
 *   unshifted on a French one. Ctrl, Alt and Meta must still be as declared.
 * - Letters and digits match the physical key (react-hotkeys-hook's default, so Alt+1 works on a
 *   Mac, where Option+1 types "¡") or the produced letter (so Ctrl+K is K on Dvorak too).
 * - Named keys (space, escape, arrows) match the physical key.
 * "arrow" stands for the four arrow keys ("alt+arrow" is Alt+←/→/↑/↓), shown as "Arrow".
 * react-hotkeys-hook reads "+" as a joiner, "," as a list and ">" as a sequence, so none of the
 * three can be a declared key.
 */

const isSymbol = (key: string) => key.length === 1 && !/[a-z0-9]/.test(key);
const isLetterOrDigit = (key: string) => /^[a-z0-9]$/.test(key);

/** Single-key shortcuts must not fire while the person types into a field. */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT';
}

/** One declared key and what it does. */
export interface ShortcutBinding {
  /** As declared in the registry (`shortcut` or `screenKeys.keys`). */
  shortcut: string;
  /**
   * Whether it fires while the focus is in a text field. Default: yes for "mod+…" chords (they
   * type nothing), no for everything else.
   */
  inFields?: boolean;
  /** Whether this press is for it (e.g. only on a focused list row); false leaves the key alone. */
  accept?: (e: KeyboardEvent) => boolean;
  fire: (e: KeyboardEvent) => void;
}

type Mode = 'symbol' | 'code' | 'letter';
/** The modes a key is matched in (a letter both ways: physical key or produced letter). */
function modesOf(hotkey: string): Mode[] {
  const { key } = parseShortcut(hotkey);
  if (isSymbol(key)) return ['symbol'];
  if (isLetterOrDigit(key)) return ['code', 'letter'];
  return ['code'];
}

const modeOptions: Record<Mode, Options> = {
  // Shift is part of producing the symbol, so react-hotkeys-hook is told to ignore modifiers and
  // `modifiersAsDeclared` checks the others.
  symbol: { useKey: true, ignoreModifiers: true },
  code: {},
  letter: { useKey: true },
};

/**
 * Ctrl, Alt and Meta as declared. A bare symbol may have taken Alt to type (Option+5 is "[" on a
 * German Mac, AltGr+8 elsewhere, which Windows reports as Ctrl+Alt), so only Ctrl or Meta on
 * their own keep it from firing: those are someone else's shortcut.
 */
function modifiersAsDeclared(e: KeyboardEvent, hotkey: string): boolean {
  const s = parseShortcut(hotkey);
  if (s.mod || s.alt) return (isMac ? e.metaKey : e.ctrlKey) === s.mod && e.altKey === s.alt;
  if (e.metaKey) return false;
  return !e.ctrlKey || e.altKey;
}

const defaultInFields = (shortcut: string) => /(^|\+)(mod|ctrl|meta)\+/.test(shortcut);

/**
 * Binds every binding through react-hotkeys-hook: on the document while `active`, or only inside
 * the element the returned ref is put on; `capture` listens ahead of the page's own handlers. A
 * press fires at most one binding, even when it matches a letter both by physical key and by
 * produced letter.
 */
export function useShortcuts(bindings: readonly ShortcutBinding[], { active = true, capture = false }: { active?: boolean; capture?: boolean } = {}) {
  const bindingsRef = useRef(bindings);
  bindingsRef.current = bindings;
  // One hotkey string per binding and mode; "alt+arrow" adds four.
  const plan = useMemo(() => {
    const byMode = (mode: Mode, inFields: boolean) =>
      bindings.flatMap((b, index) => ((b.inFields ?? defaultInFields(b.shortcut)) === inFields ? expandShortcut(b.shortcut).filter((h) => modesOf(h).includes(mode)).map((hotkey) => ({ hotkey, index })) : []));
    return (['symbol', 'code', 'letter'] as const).flatMap((mode) => [false, true].map((inFields) => ({ mode, inFields, keys: byMode(mode, inFields) })));
    // Only what is declared matters here; handlers are read from the ref at press time.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bindings.map((b) => `${b.shortcut}|${b.inFields ?? ''}`).join(',')]);
  const fired = useMemo(() => new WeakSet<KeyboardEvent>(), []);
  // Decided once per press, group and hotkey: react-hotkeys-hook asks `preventDefault` first and
  // then calls back, and a binding's `accept` must not see that preventDefault the second time.
  const decisions = useMemo(() => new WeakMap<KeyboardEvent, Map<string, ShortcutBinding | undefined>>(), []);

  const decideOnce = (keys: readonly { hotkey: string; index: number }[], e: KeyboardEvent, hotkey: string): ShortcutBinding | undefined => {
    if (e.repeat || e.isComposing || fired.has(e)) return undefined;
    const entry = keys.find((k) => k.hotkey === hotkey);
    const binding = entry && bindingsRef.current[entry.index];
    if (!binding) return undefined;
    if (isSymbol(parseShortcut(hotkey).key) && !modifiersAsDeclared(e, hotkey)) return undefined;
    if (!(binding.inFields ?? defaultInFields(binding.shortcut)) && isTypingTarget(e.target)) return undefined;
    if (binding.accept && !binding.accept(e)) return undefined;
    return binding;
  };
  const decide = (group: string, keys: readonly { hotkey: string; index: number }[], e: KeyboardEvent, hk: HotkeysEvent) => {
    let seen = decisions.get(e);
    if (!seen) decisions.set(e, (seen = new Map()));
    const key = `${group}|${hk.hotkey}`;
    if (!seen.has(key)) seen.set(key, decideOnce(keys, e, hk.hotkey));
    return seen.get(key);
  };

  const refs = plan.map(({ mode, inFields, keys }) =>
    // The plan always has the same six entries, so the hooks are called in the same order.
    // eslint-disable-next-line react-hooks/rules-of-hooks
    useHotkeys(
      keys.map((k) => k.hotkey),
      (e, hk) => {
        const binding = decide(`${mode}|${inFields}`, keys, e, hk);
        if (!binding) return;
        fired.add(e);
        binding.fire(e);
      },
      {
        ...modeOptions[mode],
        enabled: active && keys.length > 0,
        enableOnFormTags: inFields,
        enableOnContentEditable: inFields,
        preventDefault: (e, hk) => decide(`${mode}|${inFields}`, keys, e, hk) !== undefined,
        ...(capture ? { eventListenerOptions: { capture: true } } : {}),
      },
    ),
  );
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useCallback((el: HTMLElement | null) => refs.forEach((r) => r(el)), refs);
}
