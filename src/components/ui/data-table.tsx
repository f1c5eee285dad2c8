import { FlexRender, type RowData, type Table, type TableFeatures } from '@tanstack/react-table';
import { useMemo, type MouseEvent, type ReactNode } from 'react';
import { markedRowClass, useMarkableRows } from './marks';
import { cx } from './cx';
import { Skeleton } from './skeleton';

export interface DataTableProps<TFeatures extends TableFeatures, TData extends RowData> {
  table: Table<TFeatures, TData>;
  /** The table's accessible name (SPEC's screen title or the list it shows). */
  label: string;
  /** Five skeleton rows instead of the rows, and `aria-busy`. */
  loading: boolean;
  /** The server-side sort the list's URL holds: marks its column header with `aria-sort`. */
  sort?: { by: string; dir: 'asc' | 'desc' };
  /** Click-through: a click on a row that is not on one of its controls opens the row. */
  onRowClick?: (row: TData) => void;
  /** Shown under the headers when the list has loaded and is empty. */
  empty?: ReactNode;
  /** Extra classes for each body row (e.g. `align-top` for rows with multi-line cells). */
  rowClassName?: string;
  /**
   * Keyboard marks (src/components/ui/marks.ts): rows are focusable, Space marks one, Shift+Space a range,
   * Escape clears, Enter opens. `kind` is the entity the rows are, `label` names one in previews.
   */
  marks?: { kind: string; label: (row: TData) => string };
  /**
   * On a phone (below 640 px) each row becomes a block of "label value" lines instead of a
   * table that scrolls sideways: the labels are the columns' string headers, or these (by
   * column id) where a header is a control; a column without one (a name, the actions) spans
   * the row. styles.css `.stack-sm`.
   */
  stackOnPhone?: boolean | Record<string, string>;
}

/**
 * A list page's table (servers, users, notification groups, alerts): TanStack Table's headers
 * and cells, skeleton rows while loading, the empty state, and optional click-through rows.
 */
export function DataTable<TFeatures extends TableFeatures, TData extends RowData>({ table, label, loading, sort, onRowClick, empty, rowClassName, marks, stackOnPhone }: DataTableProps<TFeatures, TData>) {
  const columnCount = table.getAllLeafColumns().length;
  const openRow = (e: MouseEvent, row: TData) => {
    if ((e.target as HTMLElement).closest('a,button,input,[role="button"],[role="switch"]')) return;
    onRowClick?.(row);
  };
  const rows = table.getRowModel().rows;
  const markLabel = marks?.label;
  const ordered = useMemo(() => (markLabel ? rows.map((r) => ({ id: r.id, label: markLabel(r.original) })) : []), [rows, markLabel]);
  const byId = useMemo(() => new Map(rows.map((r) => [r.id, r.original])), [rows]);
  const open = useMemo(() => (onRowClick ? (id: string) => byId.has(id) && onRowClick(byId.get(id)!) : undefined), [onRowClick, byId]);
  const rowProps = useMarkableRows(marks?.kind ?? '', ordered, { open });
  const stack = !!stackOnPhone;
  const phoneLabel = (columnId: string, header: unknown) => (typeof stackOnPhone === 'object' && stackOnPhone[columnId]) || (typeof header === 'string' ? header : undefined);
  // Explicit roles keep the table a table for assistive technology when CSS makes its rows blocks.
  const role = (r: string) => (stack ? r : undefined);
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
      <table className={cx('w-full text-left text-sm', stack && 'stack-sm')} role={role('table')} aria-label={label} aria-busy={loading || undefined}>
        <thead className="bg-slate-50 align-top dark:bg-slate-900" role={role('rowgroup')}>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id} role={role('row')}>
              {hg.headers.map((h) => (
                <th
                  key={h.id}
                  role={role('columnheader')}
                  scope="col"
                  className="px-1.5 py-2 font-semibold first:pl-3"
                  aria-sort={sort && h.column.id === sort.by ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  <FlexRender header={h} />
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody role={role('rowgroup')}>
          {loading
            ? Array.from({ length: 5 }, (_, i) => (
                <tr key={i} aria-hidden className="border-t border-slate-100 dark:border-slate-800">
                  {Array.from({ length: columnCount }, (_, c) => (
                    <td key={c} className="px-1.5 py-3 first:pl-3">
                      <Skeleton className="h-4 w-20" />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((row, i) => {
                const mark = marks ? rowProps(ordered[i]!) : undefined;
                return (
                  <tr
                    key={row.id}
                    role={role('row')}
                    {...mark}
                    onClick={onRowClick ? (e) => openRow(e, row.original) : undefined}
                    className={cx(
                      'border-t border-slate-100 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900',
                      onRowClick && 'cursor-pointer',
                      mark && `${markedRowClass} focus-visible:ring-inset`,
                      rowClassName,
                    )}
                  >
                    {row.getAllCells().map((cell) => (
                      <td key={cell.id} role={role('cell')} data-label={stack ? phoneLabel(cell.column.id, cell.column.columnDef.header) : undefined} className="px-1.5 py-2 first:pl-3">
                        <FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                );
              })}
        </tbody>
      </table>
      {!loading && rows.length === 0 && empty}
    </div>
  );
}
