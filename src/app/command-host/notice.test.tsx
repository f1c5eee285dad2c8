// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppRegistry } from '../../../commands';
import { Notice, shortcutHint } from './notice';

afterEach(cleanup);
const registry = createAppRegistry();

describe('a palette run’s notice teaches the keys', () => {
  it('names the command’s shortcut, or the keys a screen binds to it with where they work', () => {
    expect(shortcutHint(registry.get('nav.go-notification-groups'))).toBe('Alt+4');
    expect(shortcutHint(registry.get('shortcuts.show'))).toBe('?');
    expect(shortcutHint(registry.get('history.undo'))).toBe('Ctrl+Z');
    expect(shortcutHint(registry.get('widget.move'))).toBe('Alt+Arrow on a focused pinned widget');
    expect(shortcutHint(registry.get('marks.clear'))).toBe('Esc on a list while rows are marked');
    expect(shortcutHint(registry.get('user.create'))).toBeUndefined();
  });

  it('shows it under the run’s message, and names undo’s declared key on Undo', () => {
    render(<Notice notice={{ text: 'Moved **CPU** to column 2, row 0.', tone: 'ok', at: 0, shortcut: 'Alt+Arrow on a focused pinned widget', onUndo: () => {} }} onDone={() => {}} undoKeys={registry.get('history.undo')!.shortcut} />);
    const notice = screen.getByTestId('notice');
    expect(notice.textContent).toContain('Moved CPU to column 2, row 0.');
    expect(notice.textContent).toContain('Shortcut: Alt+Arrow on a focused pinned widget');
    expect(screen.getByRole('button', { name: 'Undo' }).getAttribute('title')).toBe('Undo (Ctrl+Z)');
  });
});
