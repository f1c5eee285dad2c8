import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { alertTypeLabel, type AlertDetail, type TimelineEvent } from '../../../server/contract/alerts';
import { alertQueryOptions } from '../../api/alerts';
import { ApiError } from '../../api/client';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { Drawer } from '../../components/ui/drawer';
import { Skeleton } from '../../components/ui/skeleton';
import { Tabs } from '../../components/ui/tabs';
import { toast } from '../../components/ui/toast';
import { EMPTY } from '../../lib/format';
import { AlertText } from '../../lib/alert-text';
import { SafeMarkdown } from '../../lib/markdown';
import { useCommandRunner } from '../../app/command-host/run-command';
import { CommandButton } from '../../app/command-host/command-button';
import { CommandPromptButton } from '../../app/command-host/command-prompt-button';
import { AlertActionForm } from './alert-action-form';
import { AlertStatusBadge, alertName, DateTime, SeverityText } from '../../lib/alert-display';
import { AckLine, MuteLine } from './alert-display';
import { AckSection } from './ack-section';
import { DeliveryLog } from './delivery-log';
import { useLiveInterval } from '../../lib/use-connection';

type DrawerTab = 'overview' | 'timeline' | 'action';
const LIVE_MS = 5000;
const tabs = [
  { id: 'overview', label: 'Overview' },
  { id: 'timeline', label: 'Timeline' },
  { id: 'action', label: 'Action' },
] as const;

/**
 * SPEC §2 alert detail drawer (756 px): Overview, Timeline, Action; footer with the trigger time
 * and Delete Alert. A failed load returns to the list (`onClose`).
 */
export function AlertDrawer({ alertId, onClose }: { alertId: string; onClose: () => void }) {
  const runner = useCommandRunner();
  // Live while open: the evaluator resolves alerts and the delivery worker writes its entries
  // ("Email sent to …") into the timeline seconds after an action.
  const query = useQuery({ ...alertQueryOptions(alertId), refetchInterval: useLiveInterval(LIVE_MS) });
  const [tab, setTab] = useState<DrawerTab>('overview');
  const deleted = useRef(false);
  const canDelete = runner.check('alert.delete');

  useEffect(() => {
    if (!query.isError) return;
    // A live refresh that failed for a moment keeps what is shown; a missing alert still closes.
    const gone = query.error instanceof ApiError && query.error.status === 404;
    if (query.data && !gone) return;
    // After our own delete the refetch 404s: that is the expected end, not an error to report.
    if (!deleted.current) {
      toast(gone ? 'info' : 'error', gone ? 'This alert no longer exists.' : `Could not load the alert: ${query.error.message}`);
    }
    onClose();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.isError]);

  const alert = query.data?.result;
  const remove = async () => {
    if (!alert) return;
    deleted.current = true;
    const r = await runner.run('alert.delete', { alert: alert._id });
    if (r) {
      toast('success', (r.message ?? 'Deleted').replace(/\*\*/g, ''));
      onClose();
    } else {
      // Declined or refused (the runner has said why): the drawer stays.
      deleted.current = false;
    }
  };

  return (
    <Drawer
      title={alert ? `${alertName(alert.alertname)} · ${alert.hostname}` : 'Alert'}
      ariaLabel={alert ? `Alert ${alertName(alert.alertname)} on ${alert.hostname}` : 'Alert'}
      isOpen
      onOpenChange={(open) => !open && onClose()}
      actions={alert && <AlertCommands alert={alert} />}
      footer={
        alert && (
          <>
            <span className="text-sm text-slate-600 dark:text-slate-400">
              Triggered at <DateTime value={alert.createdAt} />
            </span>
            <div className="ml-auto">
              <Button variant="danger" disabledReason={canDelete === true ? false : canDelete} onPress={() => void remove()}>
                Delete Alert
              </Button>
            </div>
          </>
        )
      }
    >
      {!alert ? (
        <div className="space-y-4" aria-busy>
          <Skeleton className="h-8 w-64" />
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      ) : (
        <Tabs aria-label="Alert" items={tabs} selectedKey={tab} onSelectionChange={setTab}>
          {(key) => (key === 'overview' ? <Overview alert={alert} /> : key === 'timeline' ? (
                <>
                  <Timeline events={alert.timeline} />
                  <DeliveryLog alertId={alert._id} />
                </>
              ) : (
                <div className="space-y-8">
                  <AckSection alert={alert} onSaved={() => setTab('timeline')} />
                  <AlertActionForm alert={alert} onSaved={() => setTab('timeline')} />
                </div>
              ))}
        </Tabs>
      )}
    </Drawer>
  );
}

/**
 * The drawer's triage commands in its header (SPEC's tabs and footer stay as they are): each
 * button runs its command through the gate. Acknowledge needs nothing more; Resolve and Snooze
 * need a note (SPEC §5 'Add Notes'), so they open a small form beside the button that asks for
 * the note (and a snooze's length) and runs the command with this alert given.
 */
function AlertCommands({ alert }: { alert: AlertDetail }) {
  const open = alert.status !== 'resolved';
  const closed = open ? false : 'The alert is resolved';
  const owned = alert.acknowledgement ? `Acknowledged by ${alert.acknowledgement.by.username}` : false;
  return (
    <>
      <CommandButton command="alert.ack" input={{ alert: alert._id }} size="sm" disabledReason={closed || owned}>
        Acknowledge
      </CommandButton>
      <CommandPromptButton command="alert.resolve" given={{ alert: alert._id }} size="sm" disabledReason={closed}>
        Resolve
      </CommandPromptButton>
      <CommandPromptButton command="alert.snooze" given={{ alert: alert._id }} size="sm" disabledReason={closed}>
        Snooze
      </CommandPromptButton>
    </>
  );
}

function Overview({ alert }: { alert: AlertDetail }) {
  const row = (label: string, value: ReactNode) => (
    <div className="grid grid-cols-[10rem_1fr] gap-3 border-b border-slate-100 py-2 dark:border-slate-800">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 text-sm">{value ?? EMPTY}</dd>
    </div>
  );
  return (
    <dl aria-label="Overview">
      {row('Hostname', alert.hostname)}
      {row(
        'Instance',
        <span className="inline-flex items-center gap-1 font-mono">
          {alert.instance}
          <CopyButton value={alert.instance} label={`IP Address ${alert.instance}`} />
        </span>,
      )}
      {row('Name', alertName(alert.alertname))}
      {row('Description', alert.description ? <AlertText markdown={alert.description} /> : null)}
      {row('Severity', <SeverityText severity={alert.severity} />)}
      {row(
        'Status',
        <span className="inline-flex flex-wrap items-center gap-2">
          <AlertStatusBadge status={alert.status} />
          {alert.status === 'snoozed' && (
            <span className="text-slate-600 dark:text-slate-400">{alert.snoozedUntil ? <>until <DateTime value={alert.snoozedUntil} /></> : 'until it resolves'}</span>
          )}
        </span>,
      )}
      {alert.acknowledgement && row('Acknowledged', <AckLine ack={alert.acknowledgement} withNote />)}
      {alert.mute && alert.status !== 'resolved' && row('Notifications', <MuteLine mute={alert.mute} status={alert.status} />)}
      {row('Type', alertTypeLabel(alert.type))}
      {/* Plain text: a host's service name is in it (issue 11 §3). */}
      {row('Summary', alert.summary ? <span className="break-words">{alert.summary}</span> : null)}
      {row('Mountpoint', alert.mountpoint)}
      {row('Volume', alert.volume)}
      {row('Service', alert.service)}
      {alert.source === 'alertmanager' && row('Source', <AlertmanagerSource alert={alert} />)}
    </dl>
  );
}

/** Only web links are followed: a label set (or a rule author) controls this text. */
const webLink = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null);

/**
 * Issue 15 §3: an alert received from Alertmanager, with its labels as text (a Prometheus rule
 * and its targets control them) and the link back to the rule's expression.
 */
function AlertmanagerSource({ alert }: { alert: AlertDetail }) {
  const link = webLink(alert.generatorURL);
  const labels = Object.entries(alert.labels ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="space-y-1">
      <div>
        Alertmanager
        {link && (
          <>
            {' · '}
            <a href={link} target="_blank" rel="noopener noreferrer" className="text-blue-700 underline dark:text-blue-300">
              Open the rule's expression
            </a>
          </>
        )}
      </div>
      {labels.length > 0 && (
        <ul aria-label="Alertmanager labels" className="flex flex-wrap gap-1">
          {labels.map(([name, value]) => (
            <li key={name} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs break-all dark:bg-slate-800">
              {name}={value}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const eventLabels: Record<TimelineEvent['type'], string> = {
  firing: 'Triggered',
  resolved: 'Resolved',
  snoozed: 'Snoozed',
  playbook_action: 'Note',
  acknowledged: 'Acknowledged',
  unacknowledged: 'Acknowledgement released',
};
const eventDots: Record<TimelineEvent['type'], string> = {
  firing: 'bg-red-500',
  resolved: 'bg-green-500',
  snoozed: 'bg-orange-500',
  playbook_action: 'bg-blue-500',
  acknowledged: 'bg-violet-500',
  unacknowledged: 'bg-slate-400',
};

/** A note Opsdeck wrote itself is the delivery log (server/alerting/delivery.ts): "Email sent to …". */
const eventLabel = (e: TimelineEvent) => (e.type === 'playbook_action' && !e.by ? 'Delivery' : eventLabels[e.type]);

/** SPEC §2 Timeline: Triggered, Snoozed, Resolved, notes and deliveries, with the date and who did it. */
function Timeline({ events }: { events: TimelineEvent[] }) {
  if (!events.length) return <p className="text-sm text-slate-600 dark:text-slate-400">No events yet.</p>;
  return (
    <ol aria-label="Timeline" className="relative ml-2 border-l border-slate-200 dark:border-slate-700">
      {events.map((e) => (
        <li key={e._id} className="relative mb-5 pl-5 last:mb-0">
          <span aria-hidden className={`absolute top-1.5 -left-[5px] h-2.5 w-2.5 rounded-full ${eventDots[e.type]}`} />
          <div className="flex flex-wrap items-baseline gap-x-2 text-sm">
            <strong>{eventLabel(e)}</strong>
            <span className="text-slate-600 dark:text-slate-400">
              <DateTime value={e.timestamp} />
            </span>
            <span className="text-slate-600 dark:text-slate-400">by {e.by ? e.by.username : 'Opsdeck'}</span>
          </div>
          {e.note && <SafeMarkdown className="mt-1 space-y-1 rounded-md bg-slate-50 p-2 text-sm break-words dark:bg-slate-800/60 [&_p]:my-0">{e.note}</SafeMarkdown>}
        </li>
      ))}
    </ol>
  );
}
