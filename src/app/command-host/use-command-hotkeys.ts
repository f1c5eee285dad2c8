import { useEffect, useRef } from 'react';
import { isTypingTarget, matchesShortcut } from '../../lib/hotkeys';
import type { Registry } from '../../../commands/registry';
import { releaseEarlyKeys, takeEarlyKeys } from './early-keys';

/**
 * One keydown listener for every registered shortcut, read from the registry so a key shown in
 * the palette is the key that works. Single keys (":", "?", "alt+…") stay quiet while the person
 * types into a field; "mod+…" works everywhere unless the command says otherwise (`mod+z`).
 * The gate still decides whether the command runs.
 */
export function useCommandHotkeys(registry: Registry, fire: (id: string) => void, active: boolean): void {
  const fireRef = useRef(fire);
  fireRef.current = fire;
  useEffect(() => {
    if (!active) return;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.repeat || e.isComposing) return;
      for (const def of registry.list()) {
        if (!def.shortcut || !matchesShortcut(e, def.shortcut)) continue;
        const inFields = def.shortcutInFields ?? /(^|\+)(mod|ctrl|meta)\+/.test(def.shortcut);
        if (!inFields && isTypingTarget(e.target)) return;
        e.preventDefault();
        fireRef.current(def.id);
        return;
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [registry, active]);

  // Keys pressed while the app was still loading (a fast Ctrl+K right after navigation).
  useEffect(() => {
    for (const k of takeEarlyKeys()) {
      const def = registry.list().find((d) => d.shortcut && matchesShortcut(k as unknown as KeyboardEvent, d.shortcut));
      if (def) fireRef.current(def.id);
    }
    return releaseEarlyKeys;
  }, [registry]);
}
