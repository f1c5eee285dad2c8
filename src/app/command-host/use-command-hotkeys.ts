import { useEffect, useMemo, useRef } from 'react';
import { useShortcuts } from './hotkeys';
import type { Registry } from '../../../commands/registry';
import { releaseEarlyKeys, takeEarlyKeys } from './early-keys';

/**
 * Every registered `shortcut`, bound through react-hotkeys-hook (src/app/command-host/hotkeys.ts) from the
 * registry, so a key shown in the palette and the "?" overview is the key that works. Single
 * keys (":", "?", "[", "alt+…") stay quiet while the person types into a field; "mod+…" works
 * everywhere unless the command says otherwise (`mod+z`). The gate still decides whether the
 * command runs.
 */
export function useCommandHotkeys(registry: Registry, fire: (id: string) => void, active: boolean): void {
  const fireRef = useRef(fire);
  fireRef.current = fire;
  const bindings = useMemo(
    () =>
      registry
        .list()
        .filter((def) => def.shortcut)
        .map((def) => ({ shortcut: def.shortcut!, inFields: def.shortcutInFields, fire: () => fireRef.current(def.id) })),
    [registry],
  );
  useShortcuts(bindings, { active });

  // Keys pressed while the app was still loading (a fast Ctrl+K right after navigation): played
  // again once the bindings above listen (layout effects run before this one), so they are
  // matched by the same code as any other press.
  useEffect(() => {
    for (const k of takeEarlyKeys()) document.dispatchEvent(new KeyboardEvent('keydown', { key: k.key, code: k.code, ctrlKey: k.ctrlKey, metaKey: k.metaKey, altKey: k.altKey, shiftKey: k.shiftKey, bubbles: true }));
    return releaseEarlyKeys;
  }, [registry]);
}
