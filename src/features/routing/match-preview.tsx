import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { OneResult } from '../../../server/contract/common';
import type { MatchPreview as Preview } from '../../../server/contract/routing';
import { ApiError } from '../../api/client';
import { Icon } from '../../components/ui/icons';
import { useDebouncedValue } from '../../components/ui/use-debounced-value';

/**
 * Before saving: what a silence or window matches now (issue 14 §2, §3). The preview is asked
 * again 400 ms after the last change to `body`; a warning when nothing matches; a bad regex shows
 * the server's message (which names the matcher).
 */
export function MatchPreview<B, K extends QueryKey>({
  body,
  options,
  enabled,
  what,
}: {
  body: B;
  /** The preview's query-options factory (silencePreviewQueryOptions, windowPreviewQueryOptions). */
  options: (body: B) => UseQueryOptions<OneResult<Preview>, Error, OneResult<Preview>, K>;
  enabled: boolean;
  what: string;
}) {
  const serialized = JSON.stringify(body);
  const settled = useDebouncedValue(serialized, 400);
  const settledBody = useMemo(() => JSON.parse(settled) as B, [settled]);
  // Not while a change is settling: the settled body may be one that was not ready to ask about.
  const query = useQuery({ ...options(settledBody), enabled: enabled && settled === serialized, placeholderData: keepPreviousData });
  const p = query.data?.result;
  return (
    <section aria-label="Preview" aria-live="polite" aria-busy={query.isFetching || undefined} className="space-y-2 rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
      <h3 className="font-semibold">Matches now</h3>
      {!enabled ? (
        <p className="text-slate-600 dark:text-slate-400">Fill in {what} to see what it matches.</p>
      ) : query.isError ? (
        <p role="alert" className="text-red-600 dark:text-red-400">
          {query.error instanceof ApiError ? query.error.message : 'Could not preview.'}
        </p>
      ) : !p ? (
        <p className="text-slate-600 dark:text-slate-400">Looking…</p>
      ) : (
        <>
          <p data-testid="preview-counts">
            {p.alertCount} open alert{p.alertCount === 1 ? '' : 's'} on {p.serverCount} server{p.serverCount === 1 ? '' : 's'}
          </p>
          {p.warning && (
            <p role="alert" className="rounded bg-amber-50 p-2 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200">
              <Icon name="warning" className="mr-1 align-[-2px]" />
              {p.warning}
            </p>
          )}
          {p.alerts.length > 0 && (
            <ul aria-label="Matching alerts" className="list-disc pl-5">
              {p.alerts.map((a) => (
                <li key={a._id}>
                  {a.alertname.replace(/_/g, ' ')} on {a.hostname}
                  {a.service ? ` (${a.service})` : a.mountpoint ? ` (${a.mountpoint})` : ''}
                </li>
              ))}
              {p.alertCount > p.alerts.length && <li>… and {p.alertCount - p.alerts.length} more</li>}
            </ul>
          )}
          {p.servers.length > 0 && (
            <p className="text-slate-600 dark:text-slate-400">
              Servers: {p.servers.map((s) => s.hostname).join(', ')}
              {p.serverCount > p.servers.length ? `, … ${p.serverCount - p.servers.length} more` : ''}
            </p>
          )}
        </>
      )}
    </section>
  );
}
