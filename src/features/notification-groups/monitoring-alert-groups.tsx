import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { notificationGroupOptionsQueryOptions } from '../../api/notification-groups';
import { monitoringAlertGroupsQueryOptions } from '../../api/ops';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Modal } from '../../components/ui/modal';
import { toast } from '../../components/ui/toast';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useCommandForm } from '../../app/command-host/use-command-form';

/**
 * Who gets "Monitoring backend unreachable" (issue 12), the alert Opsdeck opens about itself: a
 * line on the Notification Groups page, and a dialog where an admin picks the groups or goes back
 * to the default (every group with email on). Saving runs `monitoring.set-alert-groups`.
 */
export function MonitoringAlertGroups() {
  const runner = useCommandRunner();
  const current = useQuery(monitoringAlertGroupsQueryOptions());
  const [open, setOpen] = useState(false);
  const can = runner.check('monitoring.set-alert-groups');
  const answer = current.data?.result;
  const names = answer?.effective.map((g) => g.name) ?? [];

  return (
    <section aria-label="Monitoring backend alerts" className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
      <p className="mr-auto min-w-0">
        <span className="font-medium">Monitoring backend alerts:</span>{' '}
        {current.isPending ? (
          <span className="text-slate-500 dark:text-slate-400">loading…</span>
        ) : current.isError ? (
          <span className="text-red-600 dark:text-red-400">could not load ({current.error.message})</span>
        ) : (
          <span data-testid="monitoring-alert-groups">
            “Monitoring backend unreachable” goes to {names.length ? names.join(', ') : 'no group'}
            {answer?.groupIds === null ? ' (default: every group with email on)' : ''}.
          </span>
        )}
      </p>
      <Button size="sm" disabledReason={can === true ? false : can} isDisabled={!answer} onPress={() => setOpen(true)}>
        Change…
      </Button>
      {open && answer && <ChooseGroups initial={answer.groupIds} onClose={() => setOpen(false)} />}
    </section>
  );
}

function ChooseGroups({ initial, onClose }: { initial: string[] | null; onClose: () => void }) {
  const groups = useQuery(notificationGroupOptionsQueryOptions(''));
  // A failure is reported by the run itself (a notice): the modal stays open as it was.
  const form = useCommandForm<'monitoring.set-alert-groups', { useDefault: boolean; chosen: string[] }, never>('monitoring.set-alert-groups', {
    initial: { useDefault: initial === null, chosen: initial ?? [] },
    toInput: ({ useDefault, chosen }) => (useDefault ? { default: true } : { groups: chosen }),
    field: () => undefined,
    reports: 'runner',
    onDone: () => {
      toast('success', 'Saved who gets “Monitoring backend unreachable”');
      onClose();
    },
  });
  const { useDefault } = form.values!;
  const chosen = new Set(form.values!.chosen);
  const { busy } = form;
  const setUseDefault = (on: boolean) => form.set('useDefault', on);
  const setChosen = (fn: (prev: Set<string>) => Set<string>) => form.set('chosen', [...fn(chosen)]);
  const list = groups.data?.result.data ?? [];
  const save = () => form.submit();
  return (
    <Modal
      title="Monitoring backend alerts"
      isOpen
      onOpenChange={(o) => !o && onClose()}
      footer={
        <>
          <Button variant="ghost" onPress={onClose}>
            Cancel
          </Button>
          <Button variant="primary" isDisabled={busy || (!useDefault && chosen.size === 0)} onPress={() => void save()}>
            Save
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm">
        <p className="text-slate-600 dark:text-slate-400">
          Opsdeck opens “Monitoring backend unreachable” when its figures stop (Prometheus unreachable, the collector stalled), and resolves it when they return.
        </p>
        <Checkbox isSelected={useDefault} onChange={setUseDefault}>
          Every group with email on (default)
        </Checkbox>
        <fieldset disabled={useDefault} className="space-y-2 border-l border-slate-200 pl-4 dark:border-slate-700">
          <legend className="sr-only">Notification groups</legend>
          {groups.isPending && <p className="text-slate-500 dark:text-slate-400">Loading groups…</p>}
          {groups.isError && <p className="text-red-600 dark:text-red-400">Could not load the groups: {groups.error.message}</p>}
          {list.map((g) => (
            <div key={g._id}>
              <Checkbox
                isDisabled={useDefault}
                isSelected={chosen.has(g._id)}
                onChange={(on) =>
                  setChosen((prev) => {
                    const next = new Set(prev);
                    if (on) next.add(g._id);
                    else next.delete(g._id);
                    return next;
                  })
                }
              >
                {g.name}
                {!g.emailEnabled && !g.slackEnabled ? <span className="text-slate-500 dark:text-slate-400"> (no channel on)</span> : null}
              </Checkbox>
            </div>
          ))}
          {groups.isSuccess && !list.length && <p className="text-slate-500 dark:text-slate-400">No notification groups yet.</p>}
        </fieldset>
      </div>
    </Modal>
  );
}
