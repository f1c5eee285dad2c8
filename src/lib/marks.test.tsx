// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { marks, useMarkableRows, type MarkedRow } from './marks';

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

describe('marks', () => {
  it('Space marks and unmarks the focused row; Shift+Space marks the range from the last one', () => {
    const { getByTestId } = render(<List />);
    fireEvent.keyDown(getByTestId('b'), { key: ' ' });
    expect(ids()).toEqual(['b']);
    fireEvent.keyDown(getByTestId('d'), { key: ' ', shiftKey: true });
    expect(ids()).toEqual(['b', 'c', 'd']);
    expect(getByTestId('c').getAttribute('data-marked')).toBe('true');
    expect(getByTestId('c').getAttribute('aria-describedby')).toBe('opsdeck-marked-row');
    fireEvent.keyDown(getByTestId('c'), { key: ' ' });
    expect(ids()).toEqual(['b', 'd']);
    // The range runs backwards too, from the last row Space touched.
    fireEvent.keyDown(getByTestId('a'), { key: ' ', shiftKey: true });
    expect(ids().sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(marks.get()).toMatchObject({ kind: 'server' });
  });

  it('leaves keys on controls inside a row alone, moves with the arrows, opens with Enter, clears with Escape', () => {
    const open = vi.fn();
    const { getByTestId, getAllByRole } = render(<List open={open} />);
    fireEvent.keyDown(getAllByRole('button')[0]!, { key: ' ' });
    expect(ids()).toEqual([]);
    // One tab stop: the first row until another is focused.
    expect(rows.map((r) => getByTestId(r.id).tabIndex)).toEqual([0, -1, -1, -1, -1]);
    getByTestId('a').focus();
    fireEvent.keyDown(getByTestId('a'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(getByTestId('b'));
    expect(getByTestId('b').tabIndex).toBe(0);
    fireEvent.keyDown(getByTestId('b'), { key: 'Enter' });
    expect(open).toHaveBeenCalledWith('b');
    fireEvent.keyDown(getByTestId('b'), { key: ' ' });
    fireEvent.keyDown(getByTestId('b'), { key: 'Escape' });
    expect(ids()).toEqual([]);
  });

  it('starts over when another kind is marked, and goes when its list does', async () => {
    marks.toggle('alert', { id: 'x', label: 'cpu on web' });
    const { getByTestId, unmount } = render(<List />);
    fireEvent.keyDown(getByTestId('a'), { key: ' ' });
    expect(marks.get()).toMatchObject({ kind: 'server', items: [{ id: 'a' }] });
    unmount();
    await act(() => new Promise((r) => setTimeout(r, 5)));
    expect(marks.get().items).toEqual([]);
  });
});
