// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { allCommands } from '../../../commands';
import { ShortcutOverview } from './shortcut-overview';

afterEach(cleanup);

describe('the "?" shortcut overview', () => {
  it('lists the global shortcuts and the keys a screen binds, with where they work', () => {
    render(<ShortcutOverview commands={allCommands} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog');
    // A global one: the palette.
    expect(dialog.textContent).toMatch(/Open command palette|Command palette/i);
    // The pinned widgets' keys, which are not registry shortcuts.
    const move = screen.getByText('Move pinned widget').closest('dt')!;
    expect(move.textContent).toBe('Move pinned widget (on a focused pinned widget)');
    expect(move.nextElementSibling!.textContent).toBe('Alt+Arrow');
    const resize = screen.getByText('Resize pinned widget').closest('dt')!;
    expect(resize.nextElementSibling!.textContent).toBe('Alt+Shift+Arrow');
    // Marks: Space, Shift+Space, Escape, declared on the marks commands.
    expect(screen.getByText('Mark or unmark row').closest('dt')!.nextElementSibling!.textContent).toBe('Space');
    expect(screen.getByText('Mark rows up to here').closest('dt')!.nextElementSibling!.textContent).toBe('Shift+Space');
    expect(screen.getByText('Clear marks').closest('dt')!.nextElementSibling!.textContent).toBe('Esc');
    // Commands with neither are not listed.
    expect(screen.queryByText('Edit pinned widget')).toBeNull();
  });
});
