import { describe, expect, it } from 'vitest';
import { matchesShortcut, parseShortcut } from './hotkeys';

const ev = (init: Partial<KeyboardEvent>) => ({ key: '', code: '', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...init }) as KeyboardEvent;

describe('shortcuts', () => {
  it('parses modifiers', () => {
    expect(parseShortcut('mod+shift+k')).toEqual({ key: 'k', mod: true, alt: false, shift: true });
  });
  it('matches Ctrl+K on Linux and not plain K', () => {
    expect(matchesShortcut(ev({ key: 'k', code: 'KeyK', ctrlKey: true }), 'mod+k')).toBe(true);
    expect(matchesShortcut(ev({ key: 'k', code: 'KeyK' }), 'mod+k')).toBe(false);
  });
  it('matches symbols whatever Shift it took to type them', () => {
    expect(matchesShortcut(ev({ key: ':', code: 'Semicolon', shiftKey: true }), ':')).toBe(true);
    expect(matchesShortcut(ev({ key: '?', code: 'Slash', shiftKey: true }), '?')).toBe(true);
  });
  it('matches Alt+digit by physical key', () => {
    expect(matchesShortcut(ev({ key: '¡', code: 'Digit1', altKey: true }), 'alt+1')).toBe(true);
    expect(matchesShortcut(ev({ key: '1', code: 'Digit1' }), 'alt+1')).toBe(false);
  });
});
