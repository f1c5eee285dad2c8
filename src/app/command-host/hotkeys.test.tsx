// @vitest-environment happy-dom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { HotkeysProvider, useHotkeysContext } from 'react-hotkeys-hook';
import { afterEach, describe, expect, it } from 'vitest';
import { ariaKeyshortcuts, expandShortcut, parseShortcut, shortcutLabel, useShortcuts, type ShortcutBinding } from './hotkeys';

afterEach(cleanup);

let bound: readonly { hotkey: string; useKey?: boolean }[] = [];
function Host({ bindings, active = true }: { bindings: readonly ShortcutBinding[]; active?: boolean }) {
  useShortcuts(bindings, { active });
  bound = useHotkeysContext().hotkeys;
  return <input aria-label="field" />;
}

function setup(shortcuts: readonly (Omit<ShortcutBinding, 'fire'> & { name: string })[], active = true) {
  const fired: string[] = [];
  const bindings = shortcuts.map((s) => ({ ...s, fire: () => fired.push(s.name) }));
  const view = render(
    <HotkeysProvider>
      <Host bindings={bindings} active={active} />
    </HotkeysProvider>,
  );
  return { fired, field: view.getByLabelText('field') };
}

const press = (init: KeyboardEventInit, target: Element | Document = document.body) => fireEvent.keyDown(target, init);

describe('declared keys through react-hotkeys-hook', () => {
  it('binds each declaration with react-hotkeys-hook, symbols as produced keys', () => {
    setup([
      { name: 'line', shortcut: ':' },
      { name: 'palette', shortcut: 'mod+k' },
    ]);
    expect(bound).toEqual(expect.arrayContaining([expect.objectContaining({ hotkey: ':', useKey: true }), expect.objectContaining({ hotkey: 'mod+k' })]));
  });

  it('matches ":" and "?" as the layout produces them: US, French (":" unshifted) and German', () => {
    const { fired } = setup([
      { name: 'line', shortcut: ':' },
      { name: 'help', shortcut: '?' },
    ]);
    press({ key: ':', code: 'Semicolon', shiftKey: true }); // US
    press({ key: ':', code: 'Period' }); // French AZERTY: no Shift
    press({ key: ':', code: 'Period', shiftKey: true }); // German
    press({ key: '?', code: 'Slash', shiftKey: true }); // US
    press({ key: '?', code: 'KeyM', shiftKey: true }); // French AZERTY
    press({ key: '?', code: 'Minus', shiftKey: true }); // German
    expect(fired).toEqual(['line', 'line', 'line', 'help', 'help', 'help']);
  });

  it('does not take the physical key of a symbol for the symbol, nor a symbol typed with Ctrl', () => {
    const { fired } = setup([{ name: 'line', shortcut: ':' }]);
    press({ key: 'ñ', code: 'Semicolon', shiftKey: true }); // Spanish: that key is Ñ
    press({ key: ':', code: 'Period', ctrlKey: true });
    expect(fired).toEqual([]);
  });

  it('matches Alt+digit by physical key (macOS types "¡") and letters with their modifiers only', () => {
    const { fired } = setup([
      { name: 'servers', shortcut: 'alt+2' },
      { name: 'palette', shortcut: 'mod+k' },
    ]);
    press({ key: '™', code: 'Digit2', altKey: true });
    press({ key: '2', code: 'Digit2' });
    press({ key: 'k', code: 'KeyK', ctrlKey: true });
    press({ key: 'k', code: 'KeyK' });
    // Dvorak: the K that is typed sits where QWERTY has V; it fires once, not twice.
    press({ key: 'k', code: 'KeyV', ctrlKey: true });
    expect(fired).toEqual(['servers', 'palette', 'palette']);
  });

  it('keeps single keys out of text fields; "mod+" chords work there unless declared otherwise', () => {
    const { fired, field } = setup([
      { name: 'help', shortcut: '?' },
      { name: 'palette', shortcut: 'mod+k' },
      { name: 'undo', shortcut: 'mod+z', inFields: false },
    ]);
    press({ key: '?', code: 'Slash', shiftKey: true }, field);
    press({ key: 'z', code: 'KeyZ', ctrlKey: true }, field);
    press({ key: 'k', code: 'KeyK', ctrlKey: true }, field);
    press({ key: 'z', code: 'KeyZ', ctrlKey: true });
    expect(fired).toEqual(['palette', 'undo']);
  });

  it('expands "arrow" to the four arrow keys and asks `accept` whether a press is for it', () => {
    const { fired } = setup([{ name: 'move', shortcut: 'alt+arrow', accept: (e) => e.key !== 'ArrowUp' }]);
    press({ key: 'ArrowLeft', code: 'ArrowLeft', altKey: true });
    press({ key: 'ArrowDown', code: 'ArrowDown', altKey: true });
    press({ key: 'ArrowUp', code: 'ArrowUp', altKey: true });
    press({ key: 'ArrowLeft', code: 'ArrowLeft', altKey: true, shiftKey: true });
    press({ key: 'ArrowLeft', code: 'ArrowLeft' });
    expect(fired).toEqual(['move', 'move']);
  });

  it('ignores held-down repeats and is silent while inactive', () => {
    const { fired } = setup([{ name: 'help', shortcut: '?' }], false);
    press({ key: '?', code: 'Slash', shiftKey: true });
    expect(fired).toEqual([]);
    cleanup();
    const second = setup([{ name: 'help', shortcut: '?' }]);
    press({ key: '?', code: 'Slash', shiftKey: true, repeat: true });
    expect(second.fired).toEqual([]);
  });

  it('prevents the browser default only for a press it takes', () => {
    setup([{ name: 'back', shortcut: '[' }]);
    const taken = new KeyboardEvent('keydown', { key: '[', code: 'BracketLeft', bubbles: true, cancelable: true });
    const other = new KeyboardEvent('keydown', { key: ']', code: 'BracketRight', bubbles: true, cancelable: true });
    document.body.dispatchEvent(taken);
    document.body.dispatchEvent(other);
    expect([taken.defaultPrevented, other.defaultPrevented]).toEqual([true, false]);
  });
});

describe('labels read the same declaration', () => {
  it('parses, labels and spells keys for aria-keyshortcuts', () => {
    expect(parseShortcut('mod+shift+k')).toEqual({ key: 'k', mod: true, alt: false, shift: true });
    expect(shortcutLabel('mod+k')).toBe('Ctrl+K');
    expect(shortcutLabel('alt+shift+arrow')).toBe('Alt+Shift+Arrow');
    expect(shortcutLabel('shift+space')).toBe('Shift+Space');
    expect(shortcutLabel('escape')).toBe('Esc');
    expect(shortcutLabel('?')).toBe('?');
    expect(expandShortcut('alt+arrow')).toEqual(['alt+arrowleft', 'alt+arrowright', 'alt+arrowup', 'alt+arrowdown']);
    expect(ariaKeyshortcuts('alt+1')).toBe('Alt+1');
    expect(ariaKeyshortcuts('alt+arrow')).toBe('Alt+ArrowLeft Alt+ArrowRight Alt+ArrowUp Alt+ArrowDown');
  });
});


