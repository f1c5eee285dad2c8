import { Icon } from './icons';

export interface SortHeaderProps<F extends string> {
  label: string;
  /** The field this column sorts the list by. */
  by: F;
  /** The list's sort as its URL holds it. */
  sort: { by: string; dir: 'asc' | 'desc' };
  /** Runs the list's sort (list.sort): the same column again flips the direction. */
  onSort: (by: F) => void;
}

/** A sortable column's header: the label, and an arrow for the column the list is sorted by. */
export function SortHeader<F extends string>({ label, by, sort, onSort }: SortHeaderProps<F>) {
  return (
    <button type="button" className="inline-flex items-center gap-1 text-left font-semibold outline-none focus-visible:ring-2 focus-visible:ring-blue-500" onClick={() => onSort(by)} aria-label={`Sort by ${label}`}>
      {label}
      <span aria-hidden className="text-xs text-slate-400">
        <Icon name={sort.by === by ? (sort.dir === 'asc' ? 'sortAsc' : 'sortDesc') : 'sortNone'} />
      </span>
    </button>
  );
}
