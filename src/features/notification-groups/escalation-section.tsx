import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { NotificationGroup } from '../../../server/contract/alerts';
import { formatDuration } from '../../../server/contract/duration';
import { notificationGroupOptionsQueryOptions } from '../../api/notification-groups';
import { schedulesListQueryOptions } from '../../api/oncall';
import { userQueryOptions } from '../../api/users';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';

const REPEATS = [900, 1800, 3600, 7200, 14_400];
const REMINDERS = [3600, 7200, 14_400, 28_800, 86_400];
/** "1h30m": one word, as the command line reads it. */
const word = (seconds: number) => formatDuration(seconds).replace(/\s+/g, '');

function periodOptions(values: number[], current: number | null | undefined, never: string, each: (d: string) => string) {
  const list = current && !values.includes(current) ? [...values, current].sort((a, b) => a - b) : values;
  return [{ value: 'off', label: never }, ...list.map((s) => ({ value: word(s), label: each(formatDuration(s)) }))];
}

/**
 * Issue 14 §6 and §1 on the group's drawer: its escalation steps, repeat interval and
 * acknowledgement reminder, read by everyone; those who may change groups edit them here through
 * group.set-escalation (steps in its syntax, "15m: DBA; 30m: @ann"), the command the palette runs.
 */
export function EscalationSection({ group }: { group: NotificationGroup }) {
  const runner = useCommandRunner();
  const canEdit = runner.check('group.set-escalation') === true;
  const steps = group.escalationSteps ?? [];
  const groups = useQuery(notificationGroupOptionsQueryOptions(''));
  const userIds = [...new Set(steps.flatMap((s) => [...s.userIds, ...(s.pageUserIds ?? [])]))];
  // Steps that page (issue 27 §3) name schedules: read only when some step does.
  const paging = steps.some((s) => s.scheduleIds?.length);
  const schedules = useQuery({ ...schedulesListQueryOptions(), enabled: paging });
  const scheduleName = (id: string) => schedules.data?.result.data.find((x) => x._id === id)?.name ?? id;
  // Names of users need users.read; without it a step names them by id (the command reads ids too).
  const users = useQueries({ queries: userIds.map((id) => ({ ...userQueryOptions(id), enabled: true })) });
  const userName = (id: string) => users[userIds.indexOf(id)]?.data?.result.username ?? id;
  const groupName = (id: string) => groups.data?.result.data.find((g) => g._id === id)?.name ?? 'a deleted group';
  const stepsText = steps
    .map((s) => `${word(s.afterSeconds)}: ${[...(s.groupId ? [groupName(s.groupId)] : []), ...s.userIds.map((u) => `@${userName(u)}`), ...(s.scheduleIds ?? []).map((id) => `oncall:${scheduleName(id)}`), ...(s.pageUserIds ?? []).map((u) => `page:@${userName(u)}`)].join(', ')}`)
    .join('; ');

  const [draft, setDraft] = useState({ steps: stepsText, repeat: group.repeatIntervalSeconds ? word(group.repeatIntervalSeconds) : 'off', ackReminder: group.ackReminderSeconds ? word(group.ackReminderSeconds) : 'off' });
  // Follow the saved policy (and names as they load) until the person starts typing.
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (!touched) setDraft({ steps: stepsText, repeat: group.repeatIntervalSeconds ? word(group.repeatIntervalSeconds) : 'off', ackReminder: group.ackReminderSeconds ? word(group.ackReminderSeconds) : 'off' });
  }, [stepsText, group.repeatIntervalSeconds, group.ackReminderSeconds, touched]);

  return (
    <section aria-labelledby="escalation-heading" className="mt-5">
      <h3 id="escalation-heading" className="mb-2 text-sm font-semibold">
        Escalation and repeat
      </h3>
      <ul aria-label="Escalation steps" className="mb-2 space-y-1 text-sm">
        {steps.length === 0 && <li className="text-slate-500 dark:text-slate-400">No escalation: only this group hears about its alerts.</li>}
        {steps.map((s, i) => (
          <li key={i}>
            Step {i + 1}: after {formatDuration(s.afterSeconds)} unacknowledged,{' '}
            {[
              ...(s.groupId || s.userIds.length ? [`notify ${[...(s.groupId ? [`group ${groupName(s.groupId)}`] : []), ...s.userIds.map((u) => userName(u))].join(', ')}`] : []),
              ...(s.scheduleIds?.length || s.pageUserIds?.length ? [`page ${[...(s.scheduleIds ?? []).map((id) => `whoever is on call in ${scheduleName(id)}`), ...(s.pageUserIds ?? []).map((u) => userName(u))].join(', ')} by their notification rules`] : []),
            ].join('; ')}
          </li>
        ))}
      </ul>
      <p className="text-sm">{group.repeatIntervalSeconds ? `Sends again every ${formatDuration(group.repeatIntervalSeconds)} while firing and unacknowledged.` : 'Does not repeat.'}</p>
      <p className="text-sm">{group.ackReminderSeconds ? `Reminds the owner of an acknowledgement after ${formatDuration(group.ackReminderSeconds)}, and again every ${formatDuration(group.ackReminderSeconds)}.` : 'No acknowledgement reminder.'}</p>
      {canEdit && (
        <div className="mt-3 space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-700">
          <TextField
            label="Escalation steps"
            placeholder="e.g. 15m: DBA; 30m: @ann (empty: none)"
            value={draft.steps}
            onChange={(steps) => {
              setTouched(true);
              setDraft((d) => ({ ...d, steps }));
            }}
          />
          <div className="flex flex-wrap gap-3">
            <Select
              label="Repeat"
              className="w-56"
              options={periodOptions(REPEATS, group.repeatIntervalSeconds, 'Never', (d) => `Every ${d}`)}
              value={draft.repeat}
              onChange={(repeat) => {
                setTouched(true);
                setDraft((d) => ({ ...d, repeat }));
              }}
            />
            <Select
              label="Remind owners"
              className="w-56"
              options={periodOptions(REMINDERS, group.ackReminderSeconds, 'Never', (d) => `After ${d}`)}
              value={draft.ackReminder}
              onChange={(ackReminder) => {
                setTouched(true);
                setDraft((d) => ({ ...d, ackReminder }));
              }}
            />
          </div>
          <CommandButton
            command="group.set-escalation"
            input={{ group: group._id, steps: draft.steps.trim() || 'none', repeat: draft.repeat, ackReminder: draft.ackReminder }}
            size="sm"
            variant="primary"
            onDone={() => setTouched(false)}
          >
            Save escalation policy
          </CommandButton>
        </div>
      )}
    </section>
  );
}
