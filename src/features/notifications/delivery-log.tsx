import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { channelLabels } from '../../../server/contract/channels';
import { alertDeliveriesQueryOptions } from '../../api/notification-groups';
import { alertReachQueryOptions } from '../../api/alert-reach';
import { Skeleton } from '../../components/ui/skeleton';
import { DateTime } from '../../lib/alert-display';
import { useLiveInterval } from '../../lib/use-connection';

const channelLabel = (c: string) => (channelLabels as Record<string, string>)[c] ?? c;
const transitionLabel = (t: string) => (t === 'acknowledged' ? 'acknowledgement' : t);

/**
 * Issue 15 §4: every attempt to send this alert — channel, target, attempt, the peer's response
 * code and the time — as a table under the timeline. Peers' answers are shown as text.
 */
export function DeliveryLog({ alertId }: { alertId: string }) {
  const query = useQuery({ ...alertDeliveriesQueryOptions(alertId), refetchInterval: useLiveInterval(5000) });
  const rows = query.data?.result;
  // Nothing in the log: say whether that is because alerts reach nobody (issue 24 §6).
  const reach = useQuery({ ...alertReachQueryOptions(), enabled: !!rows && !rows.length }).data?.result;
  return (
    <section aria-label="Delivery log" className="mt-8">
      <h3 className="mb-2 text-sm font-semibold">Delivery log</h3>
      {query.isError && !rows ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          Could not load the delivery log: {query.error.message}
        </p>
      ) : !rows ? (
        <Skeleton className="h-8" />
      ) : !rows.length ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Nothing sent for this alert yet.
          {reach?.state === 'no-group' && ' Alert rules without a notification group notify nobody, and no default group is set: the dashboard has the step that fixes it.'}
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-slate-600 dark:text-slate-400">
              <tr>
                <th className="py-1 pr-3 font-medium">Time</th>
                <th className="py-1 pr-3 font-medium">Channel</th>
                <th className="py-1 pr-3 font-medium">Attempt</th>
                <th className="py-1 pr-3 font-medium">Response</th>
                <th className="py-1 font-medium">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <Fragment key={r._id}>
                  <tr className="border-t border-slate-100 align-top dark:border-slate-800">
                    <td className="py-1 pr-3 whitespace-nowrap">
                      <DateTime value={r.at} />
                    </td>
                    <td className="py-1 pr-3">
                      <div>{channelLabel(r.channel)}</div>
                      <div className="text-xs break-all text-slate-600 dark:text-slate-400">{r.target}</div>
                    </td>
                    <td className="py-1 pr-3">
                      {r.attempt} <span className="text-xs text-slate-500 dark:text-slate-400">({transitionLabel(r.transition)})</span>
                    </td>
                    <td className="py-1 pr-3">{r.responseCode ?? '--'}</td>
                    <td className="py-1">
                      <span className={r.outcome === 'sent' ? 'text-green-700 dark:text-green-400' : r.outcome === 'failed' ? 'text-red-700 dark:text-red-400' : 'text-slate-600'}>{r.outcome}</span>
                      {r.error && <div className="text-xs break-words text-slate-600 dark:text-slate-400">{r.error}</div>}
                      {r.retryAt && (
                        <div className="text-xs text-slate-500 dark:text-slate-400">
                          retry at <DateTime value={r.retryAt} />
                        </div>
                      )}
                    </td>
                  </tr>
                  {r.message && (
                    <tr>
                      <td colSpan={5} className="pb-2">
                        <MessagePreview message={r.message} channel={channelLabel(r.channel)} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/**
 * A message that could not be sent, as it would have gone out (issue 24 §6): the subject and the
 * text, as plain text (the alert's fields come from monitored hosts).
 */
function MessagePreview({ message, channel }: { message: { subject: string | null; text: string }; channel: string }) {
  return (
    <details className="mt-1 text-xs">
      <summary className="cursor-pointer text-blue-700 hover:underline dark:text-blue-300">Show the {channel === 'Email' ? 'email' : `${channel} message`}</summary>
      <div className="mt-1 rounded border border-slate-200 bg-slate-50 p-2 dark:border-slate-700 dark:bg-slate-800/60" data-testid="message-preview">
        {message.subject && <p className="mb-1 font-semibold break-words">{message.subject}</p>}
        <pre className="font-mono text-[11px] whitespace-pre-wrap break-words">{message.text}</pre>
      </div>
    </details>
  );
}
