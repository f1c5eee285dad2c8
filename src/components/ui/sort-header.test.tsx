// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SortHeader } from './sort-header';

afterEach(cleanup);

const arrow = (name: string) => screen.getByRole('button', { name }).querySelector('[data-icon]')!.getAttribute('data-icon');

describe('SortHeader', () => {
  it('names the column it sorts by, shows the list’s direction on the sorted one, and asks for its field', () => {
    const onSort = vi.fn();
    const { rerender } = render(
      <>
        <SortHeader label="Hostname" by="hostname" sort={{ by: 'hostname', dir: 'asc' }} onSort={onSort} />
        <SortHeader label="State" by="state" sort={{ by: 'hostname', dir: 'asc' }} onSort={onSort} />
      </>,
    );
    expect(screen.getByRole('button', { name: 'Sort by Hostname' }).textContent).toBe('Hostname');
    expect(arrow('Sort by Hostname')).toBe('sortAsc');
    expect(arrow('Sort by State')).toBe('sortNone');
    fireEvent.click(screen.getByRole('button', { name: 'Sort by State' }));
    expect(onSort).toHaveBeenCalledWith('state');
    rerender(<SortHeader label="Hostname" by="hostname" sort={{ by: 'hostname', dir: 'desc' }} onSort={onSort} />);
    expect(arrow('Sort by Hostname')).toBe('sortDesc');
  });
});
