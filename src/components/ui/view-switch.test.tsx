// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PHONE_QUERY } from './use-media-query';
import { useListView, ViewSwitch, type ListView } from './view-switch';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A screen as wide as the test says, telling the hooks when that changes as a browser does. */
function screenWidth(phone: boolean) {
  const listeners = new Set<() => void>();
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === PHONE_QUERY && phone;
    },
    addEventListener: (_: string, cb: () => void) => listeners.add(cb),
    removeEventListener: (_: string, cb: () => void) => listeners.delete(cb),
  }));
  return (next: boolean) => act(() => void ((phone = next), listeners.forEach((cb) => cb())));
}

function List({ chosen, fallback, onChange }: { chosen?: ListView; fallback: ListView; onChange: (v: ListView) => void }) {
  const view = useListView(chosen, fallback);
  return (
    <>
      <ViewSwitch value={view} onChange={onChange} order={fallback === 'table' ? ['table', 'cards'] : ['cards', 'table']} />
      <p>{`showing ${view}`}</p>
    </>
  );
}

describe('ViewSwitch and useListView', () => {
  it('shows the chosen view or the default, the buttons in the list’s order, and says every press', () => {
    screenWidth(false);
    const onChange = vi.fn();
    const { rerender } = render(<List fallback="table" onChange={onChange} />);
    expect(screen.getByText('showing table')).toBeTruthy();
    const group = screen.getByRole('group', { name: 'View' });
    expect([...group.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Table', 'Cards']);
    expect(screen.getByRole('button', { name: 'Table' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Cards' }).getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Cards' }));
    fireEvent.click(screen.getByRole('button', { name: 'Table' }));
    expect(onChange.mock.calls).toEqual([['cards'], ['table']]);

    rerender(<List chosen="cards" fallback="table" onChange={onChange} />);
    expect(screen.getByText('showing cards')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cards' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('on a phone: cards whatever was chosen, and no switch', () => {
    const setPhone = screenWidth(true);
    render(<List chosen="table" fallback="cards" onChange={vi.fn()} />);
    expect(screen.getByText('showing cards')).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'View' })).toBeNull();
    setPhone(false);
    expect(screen.getByText('showing table')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Table' }).getAttribute('aria-pressed')).toBe('true');
  });
});
