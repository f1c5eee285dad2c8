// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../../commands';
import type { CommandContext } from '../../../commands/define-command';
import { MarksBar } from './marks-bar';
import { marks, useMarkableRows, type MarkedRow } from '../../components/ui/marks';
import { CommandRunnerContext, type CommandRunner } from './run-command';

afterEach(() => {
  cleanup();
  marks.clear();
});

const rows: MarkedRow[] = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, label: `host-${id}` }));

function List({ open, kind = 'server' }: { open?: (id: string) => void; kind?: string }) {
  const rowProps = useMarkableRows(kind, rows, { open });
  return (
    <ul>
      {rows.map((r) => (
        <li key={r.id} {...rowProps(r)} data-testid={r.id}>
          {r.label} <button type="button">Edit</button>
        </li>
      ))}
    </ul>
  );
}

const ids = () => marks.get().items.map((m) => m.id);

/**
 * The marks keys as the app has them: declared on the marks commands, bound by the command
 * host's MarksBar, run through the registry's gate with the store as `ctx.marks`.
 */
function WithHost({ children }: { children: ReactNode }) {
  const registry = createAppRegistry();
  const ctx = { user: { _id: 'u1', username: 'ann', email: 'ann@example.com', role: 'user' }, marks } as unknown as CommandContext;
  const runner = {
    run: (id: string, input: unknown) => registry.dispatch(id, input, { source: 'hotkey', ctx }),
    get: (id: string) => registry.get(id),
  } as unknown as CommandRunner;
  return (
    <CommandRunnerContext.Provider value={runner}>
      {children}
      <MarksBar />
    </CommandRunnerContext.Provider>
  );
}
const renderList = (list: ReactNode) => render(<WithHost>{list}</WithHost>);
/** A key on a row that has the focus, as a person presses it (the marks act on the focused row). */
const pressOn = (row: HTMLElement, init: KeyboardEventInit) => {
  row.focus();
  fireEvent.keyDown(row, init);
};
const SPACE = { key: ' ', code: 'Space' };

describe('marks', () => {
  it('Space marks and unmarks the focused row; Shift+Space marks the range from the last one', () => {
    const { getByTestId } = renderList(<List />);
    pressOn(getByTestId('b'), SPACE);
    expect(ids()).toEqual(['b']);
    pressOn(getByTestId('d'), { ...SPACE, shiftKey: true });
    expect(ids()).toEqual(['b', 'c', 'd']);
    expect(getByTestId('c').getAttribute('data-marked')).toBe('true');
    expect(getByTestId('c').getAttribute('aria-describedby')).toBe('opsdeck-marked-row');
    pressOn(getByTestId('c'), SPACE);
    expect(ids()).toEqual(['b', 'd']);
    // The range runs backwards too, from the last row Space touched.
    pressOn(getByTestId('a'), { ...SPACE, shiftKey: true });
    expect(ids().sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(marks.get()).toMatchObject({ kind: 'server' });
  });

  it('leaves keys on controls inside a row alone, moves with the arrows, opens with Enter, clears with Escape', () => {
    const open = vi.fn();
    const { getByTestId, getAllByRole } = renderList(<List open={open} />);
    pressOn(getAllByRole('button')[0]!, SPACE);
    expect(ids()).toEqual([]);
    // One tab stop: the first row until another is focused.
    expect(rows.map((r) => getByTestId(r.id).tabIndex)).toEqual([0, -1, -1, -1, -1]);
    getByTestId('a').focus();
    fireEvent.keyDown(getByTestId('a'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(getByTestId('b'));
    expect(getByTestId('b').tabIndex).toBe(0);
    fireEvent.keyDown(getByTestId('b'), { key: 'Enter' });
    expect(open).toHaveBeenCalledWith('b');
    pressOn(getByTestId('b'), SPACE);
    expect(ids()).toEqual(['b']);
    pressOn(getByTestId('b'), { key: 'Escape', code: 'Escape' });
    expect(ids()).toEqual([]);
  });

  it('starts over when another kind is marked, and goes when its list does', async () => {
    marks.toggle('alert', { id: 'x', label: 'cpu on web' });
    const { getByTestId, unmount } = renderList(<List />);
    pressOn(getByTestId('a'), SPACE);
    expect(marks.get()).toMatchObject({ kind: 'server', items: [{ id: 'a' }] });
    unmount();
    await act(() => new Promise((r) => setTimeout(r, 5)));
    expect(marks.get().items).toEqual([]);
  });
});
