import { showingItems } from '../../lib/dashboard-format';
import { Button } from './button';
import { Select } from './select';

export interface PaginationProps {
  page: number;
  pageSize: number;
  total: number;
  /** The total is an estimate (the list's `countEstimated`): the text says "about". */
  estimated?: boolean;
  pageSizes?: readonly number[];
  onChange: (page: number, pageSize: number) => void;
}

/** "Showing x-y of n items", page buttons and a page-size choice (SPEC §9: 25/50/75/100). */
export function Pagination({ page, pageSize, total, estimated = false, pageSizes = [25, 50, 75, 100], onChange }: PaginationProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-end gap-2 text-sm">
      <span className="text-slate-600 dark:text-slate-400">{showingItems(page, pageSize, total, estimated)}</span>
      <Button size="sm" aria-label="Previous page" isDisabled={page <= 1} onPress={() => onChange(page - 1, pageSize)}>
        ‹
      </Button>
      <span aria-live="polite">
        {page} / {pages}
      </span>
      <Button size="sm" aria-label="Next page" isDisabled={page >= pages} onPress={() => onChange(page + 1, pageSize)}>
        ›
      </Button>
      {/* One size (the dashboard's 5) is no choice: no selector. */}
      {pageSizes.length > 1 && (
        <Select
          aria-label="Page size"
          className="w-32"
          value={String(pageSize)}
          options={pageSizes.map((s) => ({ value: String(s), label: `${s} / page` }))}
          onChange={(v) => onChange(1, Number(v))}
        />
      )}
    </nav>
  );
}
