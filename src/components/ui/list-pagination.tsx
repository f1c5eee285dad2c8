import { useEffect, useRef } from 'react';
import type { CommandInput } from '../../../commands';
import { useCommandRunner } from './command-runner';
import { Pagination } from './pagination';

export interface ListPaginationProps {
  page: number;
  pageSize: number;
  total: number;
  estimated?: boolean;
  /** Another page at the same size: the screen moves its URL's page. */
  onPage: (page: number) => void;
  /**
   * Given, a page left empty past the end (its last row deleted) steps back to the last page
   * that has rows once the list has settled (fetched, not fetching).
   */
  emptyPage?: { rows: number; settled: boolean };
}

/**
 * A list screen's pager: page buttons move the screen's page; the page size runs the open list's
 * `list.page-size`, as the palette and the command line do.
 */
export function ListPagination({ page, pageSize, total, estimated, onPage, emptyPage }: ListPaginationProps) {
  const { run } = useCommandRunner();
  const goTo = useRef(onPage);
  useEffect(() => {
    goTo.current = onPage;
  });
  const last = Math.max(1, Math.ceil(total / pageSize));
  const stepBack = !!emptyPage && emptyPage.settled && emptyPage.rows === 0 && total > 0 && page > 1;
  useEffect(() => {
    if (stepBack) goTo.current(last);
  }, [stepBack, last, page]);
  return (
    <Pagination
      page={page}
      pageSize={pageSize}
      total={total}
      estimated={estimated}
      onChange={(next, size) => (size !== pageSize ? void run('list.page-size', { size: size as CommandInput<'list.page-size'>['size'] }) : onPage(next))}
    />
  );
}
