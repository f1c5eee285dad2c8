import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { IntegrationsStatus } from '../../../server/contract/alertmanager';
import { receiverUrl } from '../../../commands/integration/receiver-url';
import { alertmanagerIntegrationQueryOptions } from '../../api/integrations';
import { CopyButton } from '../../components/ui/copy-button';
import { NotificationsTabs } from '../../components/ui/link-tabs';
import { Skeleton } from '../../components/ui/skeleton';
import { CommandButton } from '../../app/command-host/command-button';
import { LoadError } from '../../components/ui/load-error';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '--');

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[12rem_1fr] gap-3 py-1.5">
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">{term}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

/**
 * Issue 15: Notifications › Integrations — Alertmanager both ways. The receiver (the URL to give
 * Alertmanager, whether a token is set, create/rotate/remove through integration.* commands; a
 * new token is shown here once) and the push (each ALERTMANAGER_URL instance's last answer, the
 * last post, mirrored silences). Everyone who may read sees the status; only admins change the
 * token (the buttons say why not). Instance errors are others' text: shown as text.
 */
export function IntegrationsPage() {
  const query = useQuery({ ...alertmanagerIntegrationQueryOptions(), refetchInterval: 10_000 });
  const [revealed, setRevealed] = useState<string | null>(null);
  const status = query.data?.result;
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Notifications</h1>
      <NotificationsTabs current="integrations" />
      {query.isError && (
        <LoadError title="Could not load the integrations:" detail={query.error.message} />
      )}
      {!status ? (
        !query.isError && <Skeleton className="h-40" />
      ) : (
        <>
          <Receiver status={status} revealed={revealed} onToken={setRevealed} />
          <Push status={status} />
        </>
      )}
    </div>
  );
}

function Receiver({ status, revealed, onToken }: { status: IntegrationsStatus; revealed: string | null; onToken: (t: string | null) => void }) {
  const r = status.receiver;
  const url = receiverUrl();
  return (
    <section aria-labelledby="am-receiver" className="rounded-md border border-slate-200 p-4 dark:border-slate-700">
      <h2 id="am-receiver" className="mb-2 text-lg font-semibold">
        Alertmanager receiver
      </h2>
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">Alertmanager's webhook notifications become Opsdeck alerts, with timelines, notes and acknowledgements.</p>
      <dl>
        <Row term="Receiver URL">
          <span className="inline-flex items-center gap-2">
            <code data-testid="receiver-url">{url}</code>
            <CopyButton value={url} label="Copy receiver URL" />
          </span>
        </Row>
        <Row term="Status">
          <span data-testid="receiver-state" className={r.enabled ? 'text-green-700 dark:text-green-400' : 'text-slate-600 dark:text-slate-400'}>
            {r.enabled ? 'On' : 'Off: no token'}
          </span>
        </Row>
        <Row term="Token">
          <span data-testid="receiver-token">{r.token ? `${r.token.prefix}… created by ${r.token.createdBy} at ${when(r.token.createdAt)}` : 'None created here'}</span>
        </Row>
        {r.fromEnvironment && <Row term="From the environment">ALERTMANAGER_RECEIVER_TOKEN is set and is accepted too.</Row>}
      </dl>
      <div className="mt-3 flex flex-wrap gap-2">
        <CommandButton size="sm" variant="primary" command="integration.rotate-token" input={{}} onDone={(res) => onToken((res.data as { token?: string } | undefined)?.token ?? null)}>
          {r.token ? 'Rotate token' : 'Create token'}
        </CommandButton>
        {r.token && (
          <CommandButton size="sm" variant="danger" command="integration.remove-token" input={{}} onDone={() => onToken(null)}>
            Remove token
          </CommandButton>
        )}
      </div>
      {revealed && (
        <div role="status" aria-label="New receiver token" className="mt-3 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950">
          <p className="font-medium">Copy it now: it is not shown again.</p>
          <span className="inline-flex items-center gap-2">
            <code data-testid="revealed-token" className="break-all">
              {revealed}
            </code>
            <CopyButton value={revealed} label="Copy receiver token" />
          </span>
          <pre className="overflow-x-auto rounded bg-white p-2 text-xs dark:bg-slate-900">{`receivers:
  - name: opsdeck
    webhook_configs:
      - url: ${url}
        send_resolved: true
        http_config:
          authorization:
            credentials: <the token above>`}</pre>
        </div>
      )}
    </section>
  );
}

function Push({ status }: { status: IntegrationsStatus }) {
  const p = status.push;
  return (
    <section aria-labelledby="am-push" className="rounded-md border border-slate-200 p-4 dark:border-slate-700">
      <h2 id="am-push" className="mb-2 text-lg font-semibold">
        Push to Alertmanager
      </h2>
      {!p.urls.length ? (
        <p data-testid="push-off" className="text-sm text-slate-600 dark:text-slate-400">
          Off: set ALERTMANAGER_URL (every instance of the cluster, comma-separated) to post Opsdeck's alerts to Alertmanager.
        </p>
      ) : (
        <>
          <dl>
            <Row term="Running">{p.running ? 'Yes (this process leads)' : 'No: another process leads, or it has not started'}</Row>
            <Row term="Last post">{when(p.lastPushAt)}</Row>
            <Row term="Last full resend">{when(p.lastFullAt)}</Row>
          </dl>
          <table aria-label="Alertmanager instances" className="mt-3 w-full text-left text-sm">
            <thead className="text-slate-600 dark:text-slate-400">
              <tr>
                <th className="py-1 pr-3 font-medium">Instance</th>
                <th className="py-1 pr-3 font-medium">State</th>
                <th className="py-1 pr-3 font-medium">Last success</th>
                <th className="py-1 font-medium">Last error</th>
              </tr>
            </thead>
            <tbody>
              {p.instances.map((i) => (
                <tr key={i.url} className="border-t border-slate-100 align-top dark:border-slate-800">
                  <td className="py-1 pr-3 break-all">{i.url}</td>
                  <td className={`py-1 pr-3 ${i.ok === false ? 'text-red-700 dark:text-red-400' : i.ok ? 'text-green-700 dark:text-green-400' : ''}`}>{i.ok === null ? 'Not posted yet' : i.ok ? 'OK' : 'Failing'}</td>
                  <td className="py-1 pr-3 whitespace-nowrap">{when(i.lastOkAt)}</td>
                  <td className="py-1 break-words">{i.lastError ?? '--'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {p.silences && (
            <dl className="mt-3">
              <Row term="Mirrored silences">
                {Object.keys(p.silences.mirrored).length} mirrored, last sync {when(p.silences.lastSyncAt)}
                {p.silences.lastError ? ` — ${p.silences.lastError}` : ''}
              </Row>
              {p.silences.skipped.map((s) => (
                <Row key={s.id} term="Not mirrored">
                  {s.id}: {s.reason}
                </Row>
              ))}
            </dl>
          )}
        </>
      )}
    </section>
  );
}
