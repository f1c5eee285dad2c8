import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { myShiftQueryOptions } from '../../api/oncall';
import { when } from './oncall-text';

/**
 * The top bar's "you are on call" (issue 27 §1): the signed-in person's current shift, else their
 * next one within two weeks, linking to its schedule; nothing when they have none. Wide screens
 * only: a phone's top bar has no room.
 */
export function MyShift() {
  const query = useQuery({ ...myShiftQueryOptions(), refetchInterval: 5 * 60_000 });
  const shift = query.data?.result;
  if (!shift) return null;
  return (
    <Link
      to="/oncall/$id"
      params={{ id: shift.schedule._id }}
      className={shift.current ? 'hidden rounded bg-amber-100 px-2 py-1 text-xs font-medium text-amber-900 lg:inline dark:bg-amber-900 dark:text-amber-100' : 'hidden text-xs text-slate-600 hover:underline lg:inline dark:text-slate-400'}
    >
      {shift.current ? `On call: ${shift.schedule.name} until ${when(shift.end)}` : `Next on call: ${shift.schedule.name}, ${when(shift.start)}`}
    </Link>
  );
}
