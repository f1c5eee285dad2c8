import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ScheduleGaps } from '../../../server/contract/oncall';
import { gapsQueryOptions } from '../../api/oncall';
import { Icon } from '../../components/ui/icons';
import { when } from './oncall-text';

/** Schedules change on other screens and by other people: the warnings follow within this. */
const REFETCH_MS = 60_000;
const box = 'flex items-start gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100';

const gapText = (g: ScheduleGaps['gaps'][number]) => `${when(g.start)} – ${when(g.end)}`;

/** Issue 27 §7 on the schedule screen: when nobody is on call in the next 7 days. Nothing while someone always is. */
export function GapWarning({ schedule }: { schedule: string }) {
  const query = useQuery({ ...gapsQueryOptions(schedule), refetchInterval: REFETCH_MS });
  const gaps = query.data?.result[0]?.gaps ?? [];
  if (!gaps.length) return null;
  return (
    <section aria-label="Nobody on call" data-testid="gap-warning" className={box}>
      <Icon name="warning" size={18} className="mt-0.5" />
      <div className="min-w-0 flex-1 space-y-1">
        <h2 className="font-semibold">Nobody on call in the next 7 days</h2>
        <p>Nobody is on call in this schedule then: an alert that pages it reaches no one. Add an override, or a layer that covers these times.</p>
        <ul className="list-disc pl-5 tabular-nums">
          {gaps.map((g) => (
            <li key={g.start}>{gapText(g)}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** Issue 27 §7 on the dashboard: each schedule with nobody on call some time in the next 7 days, linked to it. */
export function OnCallGapNotice() {
  const query = useQuery({ ...gapsQueryOptions(), refetchInterval: REFETCH_MS });
  const list = query.data?.result ?? [];
  if (!list.length) return null;
  return (
    <section aria-label="Nobody on call" data-testid="oncall-gap-notice" className={box}>
      <Icon name="warning" size={18} className="mt-0.5" />
      <div className="min-w-0 flex-1 space-y-1">
        <h2 className="font-semibold">Nobody on call</h2>
        <ul className="space-y-0.5">
          {list.map((s) => (
            <li key={s.schedule._id}>
              <Link to="/oncall/$id" params={{ id: s.schedule._id }} className="font-medium underline">
                {s.schedule.name}
              </Link>{' '}
              has nobody on call <span className="tabular-nums">{gapText(s.gaps[0]!)}</span>
              {s.gaps.length > 1 ? ` and ${s.gaps.length - 1} more time${s.gaps.length > 2 ? 's' : ''} in the next 7 days` : ''}.
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
