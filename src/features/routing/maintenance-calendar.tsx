import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { WindowOccurrence } from '../../../server/contract/routing';
import { occurrencesQueryOptions } from '../../api/maintenance-windows';
import { Button } from '../../components/ui/button';
import { cx } from '../../components/ui/cx';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const pad = (n: number) => String(n).padStart(2, '0');
const monthKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}`;
const dayKey = (d: Date) => `${monthKey(d)}-${pad(d.getDate())}`;
const hm = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;

/**
 * A month of maintenance (issue 14 §3), in the viewer's local time: six weeks from the Monday
 * before the 1st, each day listing the occurrences that touch it (a window over midnight shows
 * on both days). Previous, Today and Next change `month` in the URL; `maintenance.calendar
 * --month` does the same from the keyboard. An occurrence opens its window.
 */
export function MaintenanceCalendar({ month, onMonth, onOpen }: { month?: string; onMonth: (m: string | undefined) => void; onOpen: (windowId: string) => void }) {
  const now = new Date();
  const [y, m] = (month ?? monthKey(now)).split('-').map(Number) as [number, number];
  const first = new Date(y, m - 1, 1);
  const gridStart = new Date(y, m - 1, 1 - ((first.getDay() + 6) % 7));
  const days = Array.from({ length: 42 }, (_, i) => new Date(gridStart.getFullYear(), gridStart.getMonth(), gridStart.getDate() + i));
  const gridEnd = new Date(days[41]!.getFullYear(), days[41]!.getMonth(), days[41]!.getDate() + 1);
  const query = useQuery({ ...occurrencesQueryOptions(gridStart, gridEnd), placeholderData: keepPreviousData });
  const byDay = new Map<string, WindowOccurrence[]>();
  for (const o of query.data?.result ?? []) {
    const s = new Date(o.start);
    const e = new Date(o.end);
    for (let d = new Date(s.getFullYear(), s.getMonth(), s.getDate()); d < e; d = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1)) {
      const list = byDay.get(dayKey(d)) ?? [];
      list.push(o);
      byDay.set(dayKey(d), list);
    }
  }
  const shift = (n: number) => onMonth(monthKey(new Date(y, m - 1 + n, 1)));
  const title = first.toLocaleDateString(undefined, { month: 'long', year: 'numeric' });

  return (
    <section aria-labelledby="calendar-title" aria-busy={query.isFetching || undefined} className="space-y-2">
      <div className="flex items-center gap-2">
        <Button size="sm" aria-label="Previous month" onPress={() => shift(-1)}>
          ‹
        </Button>
        <Button size="sm" onPress={() => onMonth(undefined)}>
          Today
        </Button>
        <Button size="sm" aria-label="Next month" onPress={() => shift(1)}>
          ›
        </Button>
        <h2 id="calendar-title" className="ml-2 text-lg font-semibold">
          {title}
        </h2>
      </div>
      {query.isError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          Could not load the calendar: {query.error.message}
        </p>
      )}
      {/* A table, not a grid: it has no arrow-key navigation, and a grid's cells are widgets that must be named by their visible text. */}
      <div role="table" aria-label={`Maintenance in ${title}`} className="grid grid-cols-7 gap-px overflow-hidden rounded-md border border-slate-200 bg-slate-200 dark:border-slate-700 dark:bg-slate-700">
        <div role="row" className="contents">
          {WEEKDAYS.map((w) => (
            <div key={w} role="columnheader" className="bg-slate-50 px-2 py-1 text-xs font-medium text-slate-600 dark:bg-slate-800 dark:text-slate-400">
              {w}
            </div>
          ))}
        </div>
        {Array.from({ length: 6 }, (_, week) => (
          <div key={week} role="row" className="contents">
            {days.slice(week * 7, week * 7 + 7).map((d) => {
              const items = byDay.get(dayKey(d)) ?? [];
              const today = dayKey(d) === dayKey(now);
              return (
                <div
                  key={dayKey(d)}
                  role="cell"
                  aria-label={`${d.toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' })}: ${items.length ? items.map((o) => o.name).join(', ') : 'no maintenance'}`}
                  className={cx('min-h-24 bg-white p-1 dark:bg-slate-900', d.getMonth() !== m - 1 && 'bg-slate-50 text-slate-500 dark:bg-slate-900/60 dark:text-slate-400')}
                >
                  <div className={cx('mb-1 text-xs', today && 'inline-block rounded-full bg-blue-600 px-1.5 font-semibold text-white')}>{d.getDate()}</div>
                  <ul className="space-y-1">
                    {items.map((o) => (
                      <li key={`${o.windowId}-${o.start}`}>
                        <button
                          type="button"
                          onClick={() => onOpen(o.windowId)}
                          className="w-full truncate rounded bg-sky-100 px-1 text-left text-xs text-sky-900 outline-none hover:bg-sky-200 focus-visible:ring-2 focus-visible:ring-blue-500 dark:bg-sky-900/60 dark:text-sky-100"
                        >
                          {hm(new Date(o.start))}–{hm(new Date(o.end))} {o.name}
                        </button>
                      </li>
                    ))}
                  </ul>
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </section>
  );
}
