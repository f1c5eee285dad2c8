import { useQuery } from '@tanstack/react-query';
import type { AlertReach } from '../../../server/contract/reach';
import { alertReachQueryOptions } from '../../api/alert-reach';
import { Icon } from '../../components/ui/icons';
import { CommandButton } from '../../app/command-host/command-button';

/** Rules change on other screens and by other people: the notice follows within this. */
const REFETCH_MS = 15_000;

const rulesPhrase = (r: AlertReach) => (r.silentRules === r.rules ? `None of the ${r.rules} alert rules has` : `${r.silentRules} of the ${r.rules} alert rules have`);

/**
 * Issue 24 §6: a console whose alerts reach nobody says so on the dashboard, with the one step
 * that fixes it as a command button — make a default group (or, with no group at all, create
 * one that is the default), or give the groups the rules notify a channel that can send.
 * Nothing is shown while alerts reach someone.
 */
export function ReachNotice() {
  const query = useQuery({ ...alertReachQueryOptions(), refetchInterval: REFETCH_MS });
  const reach = query.data?.result;
  if (!reach || reach.state === 'ok') return null;
  const silentGroup = reach.groupsInUse.find((g) => g.silentBecause.length);
  return (
    <section
      aria-label="Alert notifications"
      data-testid="reach-notice"
      className="flex flex-wrap items-start gap-x-4 gap-y-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <Icon name="muted" size={18} className="mt-0.5" />
      <div className="mr-auto min-w-0 flex-1 space-y-1">
        {reach.state === 'no-group' ? (
          <>
            <h2 className="font-semibold">Alerts notify nobody</h2>
            <p>
              {rulesPhrase(reach)} a notification group, and no default group is set: a firing alert reaches no one.{' '}
              {reach.groups === 0 ? 'Create a group and make it the default: every rule without a group, and every new one, notifies it.' : 'Make one of the groups the default: every rule without a group, and every new one, notifies it.'}
            </p>
          </>
        ) : (
          <>
            <h2 className="font-semibold">Alerts reach nobody</h2>
            <p>
              {reach.groupsInUse.length === 1 ? `The alert rules notify ${reach.groupsInUse[0]!.name}, which cannot send` : `None of the groups the alert rules notify (${reach.groupsInUse.map((g) => g.name).join(', ')}) can send`}
              {silentGroup ? `: ${silentGroup.silentBecause.join('; ')}.` : '.'} Add a channel (a webhook, Teams, PagerDuty, Telegram or ntfy), or set SMTP_URL or SLACK_BOT_TOKEN.
            </p>
          </>
        )}
        <p className="text-xs text-amber-900/80 dark:text-amber-100/80">An alert's delivery log shows each message that could not be sent, as it would have gone out.</p>
      </div>
      <div className="shrink-0">
        {reach.state === 'no-group' ? (
          reach.groups === 0 ? (
            <CommandButton command="group.create-default" askWith={{}} variant="primary" size="sm">
              Create a default group
            </CommandButton>
          ) : (
            // `none` given (unset): the palette asks only for the group.
            <CommandButton command="group.set-default" askWith={{ none: undefined }} variant="primary" size="sm">
              Make a default group
            </CommandButton>
          )
        ) : (
          silentGroup && (
            <CommandButton command="group.add-channel" askWith={{ group: silentGroup._id }} variant="primary" size="sm">
              {`Add a channel to ${silentGroup.name}`}
            </CommandButton>
          )
        )}
      </div>
    </section>
  );
}
