// @vitest-environment happy-dom
import { cleanup, fireEvent, render } from '@testing-library/react';
import { HotkeysProvider, useHotkeysContext } from 'react-hotkeys-hook';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../../commands';
import './early-keys';
import { useCommandHotkeys } from './use-command-hotkeys';

afterEach(cleanup);

function Host({ fire, active = true }: { fire: (id: string) => void; active?: boolean }) {
  useCommandHotkeys(createAppRegistry(), fire, active);
  return <input aria-label="field" />;
}

let bound: readonly { hotkey: string; useKey?: boolean }[] = [];
function Probe() {
  bound = useHotkeysContext().hotkeys;
  return null;
}

const press = (target: Element | Document, init: KeyboardEventInit) => fireEvent.keyDown(target, init);

describe('useCommandHotkeys', () => {
  it('fires the command whose shortcut matches, from the registry', () => {
    const fire = vi.fn();
    render(<Host fire={fire} />);
    press(document.body, { key: ':', code: 'Semicolon', shiftKey: true });
    press(document.body, { key: '?', code: 'Slash', shiftKey: true });
    press(document.body, { key: 'k', code: 'KeyK', ctrlKey: true });
    press(document.body, { key: 'h', code: 'KeyH', altKey: true });
    expect(fire.mock.calls.map((c) => c[0])).toEqual(['cmdline.open', 'shortcuts.show', 'palette.open', 'history.show']);
  });

  it('binds the registry’s keys through react-hotkeys-hook: ":" and "?" work as a French or German layout produces them', () => {
    const fire = vi.fn();
    render(
      <HotkeysProvider>
        <Host fire={fire} />
        <Probe />
      </HotkeysProvider>,
    );
    expect(bound).toEqual(expect.arrayContaining([expect.objectContaining({ hotkey: ':', useKey: true }), expect.objectContaining({ hotkey: '?', useKey: true }), expect.objectContaining({ hotkey: 'mod+k' })]));
    press(document.body, { key: ':', code: 'Period' }); // AZERTY: ":" without Shift
    press(document.body, { key: '?', code: 'Minus', shiftKey: true }); // QWERTZ: Shift+ß
    press(document.body, { key: '[', code: 'Digit5', altKey: true }); // German Mac: Option+5
    press(document.body, { key: '[', code: 'BracketLeft', ctrlKey: true }); // Ctrl+[ is not "["
    expect(fire.mock.calls.map((c) => c[0])).toEqual(['cmdline.open', 'shortcuts.show', 'nav.back']);
  });

  it('lets single keys through to text fields but keeps Ctrl+K working there', () => {
    const fire = vi.fn();
    const { getByLabelText } = render(<Host fire={fire} />);
    const field = getByLabelText('field');
    press(field, { key: ':', code: 'Semicolon', shiftKey: true });
    press(field, { key: '?', code: 'Slash', shiftKey: true });
    expect(fire).not.toHaveBeenCalled();
    press(field, { key: 'k', code: 'KeyK', ctrlKey: true });
    expect(fire).toHaveBeenCalledWith('palette.open');
  });

  it('fires Ctrl+Z (undo) outside text fields only: in a field it is the field’s own undo', () => {
    const fire = vi.fn();
    const { getByLabelText } = render(<Host fire={fire} />);
    press(getByLabelText('field'), { key: 'z', code: 'KeyZ', ctrlKey: true });
    expect(fire).not.toHaveBeenCalled();
    press(document.body, { key: 'z', code: 'KeyZ', ctrlKey: true });
    expect(fire).toHaveBeenCalledWith('history.undo');
  });

  it('stays quiet while inactive (a confirmation is open) and for plain letters', () => {
    const fire = vi.fn();
    render(<Host fire={fire} active={false} />);
    press(document.body, { key: 'k', code: 'KeyK', ctrlKey: true });
    render(<Host fire={fire} />);
    press(document.body, { key: 'k', code: 'KeyK' });
    expect(fire).not.toHaveBeenCalled();
  });

  it('replays a shortcut pressed before the host mounted (the app layout loads lazily)', () => {
    press(document.body, { key: 'k', code: 'KeyK', ctrlKey: true });
    const fire = vi.fn();
    render(<Host fire={fire} />);
    expect(fire).toHaveBeenCalledWith('palette.open');
  });
});
