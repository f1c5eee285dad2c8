import { useEffect, useState, type ReactNode } from 'react';
import { Pagination } from '../../components/ui/pagination';
import { pagerVisible } from '../../lib/dashboard-format';

export interface SmallColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/** SPEC §9: dashboard tables show 5 rows a page. */
export const DASHBOARD_PAGE_SIZE = 5;

/**
 * A dashboard table of at most a few hundred rows the API sent at once, paged here by 5 with
 * 'Showing x-y of n items'; the pager is hidden when everything fits on one page (SPEC §2).
 */
export function SmallTable<T>({ label, rows, columns, rowKey }: { label: string; rows: T[]; columns: SmallColumn<T>[]; rowKey: (row: T) => string }) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(rows.length / DASHBOARD_PAGE_SIZE));
  // A refresh or a new threshold can shorten the list under the current page.
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);
  const shown = rows.slice((page - 1) * DASHBOARD_PAGE_SIZE, page * DASHBOARD_PAGE_SIZE);
  return (
    <div className="flex flex-col gap-2">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-label={label}>
          <thead className="bg-slate-50 dark:bg-slate-800/60">
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col" className="px-2 py-2 font-semibold first:pl-3">
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={rowKey(r)} className="border-t border-slate-100 dark:border-slate-800">
                {columns.map((c) => (
                  <td key={c.header} className={c.className ?? 'px-2 py-2 first:pl-3'}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pagerVisible(rows.length, DASHBOARD_PAGE_SIZE) && (
        <Pagination page={Math.min(page, pages)} pageSize={DASHBOARD_PAGE_SIZE} total={rows.length} pageSizes={[DASHBOARD_PAGE_SIZE]} onChange={(p) => setPage(p)} />
      )}
    </div>
  );
}
