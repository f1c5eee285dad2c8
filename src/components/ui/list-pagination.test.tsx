// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandRunnerContext, type CommandRunner } from './command-runner';
import { ListPagination, type ListPaginationProps } from './list-pagination';

afterEach(cleanup);

function mount(props: ListPaginationProps) {
  const run = vi.fn(async () => null);
  const ui = (p: ListPaginationProps) => (
    <CommandRunnerContext.Provider value={{ run: run as unknown as CommandRunner['run'], runOrThrow: run as unknown as CommandRunner['runOrThrow'], check: () => true, get: () => undefined }}>
      <ListPagination {...p} />
    </CommandRunnerContext.Provider>
  );
  const view = render(ui(props));
  return { run, rerender: (p: ListPaginationProps) => view.rerender(ui(p)) };
}

describe('ListPagination', () => {
  it('moves the page itself and runs list.page-size for another size', () => {
    const onPage = vi.fn();
    const { run } = mount({ page: 2, pageSize: 25, total: 120, onPage });
    expect(screen.getByText('2 / 5')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onPage.mock.calls).toEqual([[3], [1]]);
    expect(run).not.toHaveBeenCalled();
  });

  it('steps back from an empty page past the end once the list has settled, and only when asked to', () => {
    const onPage = vi.fn();
    const { rerender } = mount({ page: 3, pageSize: 25, total: 50, onPage, emptyPage: { rows: 0, settled: false } });
    expect(onPage).not.toHaveBeenCalled();
    rerender({ page: 3, pageSize: 25, total: 50, onPage, emptyPage: { rows: 0, settled: true } });
    expect(onPage.mock.calls).toEqual([[2]]);
    rerender({ page: 2, pageSize: 25, total: 50, onPage, emptyPage: { rows: 25, settled: true } });
    expect(onPage).toHaveBeenCalledTimes(1);

    cleanup();
    const never = vi.fn();
    mount({ page: 3, pageSize: 25, total: 50, onPage: never });
    mount({ page: 1, pageSize: 25, total: 0, onPage: never, emptyPage: { rows: 0, settled: true } });
    expect(never).not.toHaveBeenCalled();
  });
});
