import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useEffect } from 'react';
import { publicStateLabels, type PublicIncident, type PublicItem, type PublicState, type PublicStatus } from '../../../server/contract/status-pages';
import { ApiError } from '../../api/client';
import { publicStatusQueryOptions } from '../../api/status-pages';
import { cx } from '../../components/ui/cx';
import { formatUptimeShare, uptimeTone } from '../../lib/check-format';
import type { Tone } from '../../lib/format';
import { PublicMarkdown } from '../../lib/markdown';

const route = getRouteApi('/status/$slug');
const REFRESH_MS = 60_000;

const stateTone: Record<PublicState, string> = {
  up: 'text-green-700 dark:text-green-400',
  down: 'text-red-600 dark:text-red-400',
  maintenance: 'text-blue-700 dark:text-blue-300',
  unknown: 'text-slate-500 dark:text-slate-400',
};
const stateDot: Record<PublicState, string> = { up: 'bg-green-500', down: 'bg-red-500', maintenance: 'bg-blue-500', unknown: 'bg-slate-400' };
const barTone: Record<Tone, string> = { green: 'bg-green-500', orange: 'bg-orange-400', red: 'bg-red-500', none: 'bg-slate-200 dark:bg-slate-700' };

const overallText: Record<PublicStatus['overall'], { text: string; className: string }> = {
  up: { text: 'All systems operational', className: 'bg-green-700 text-white' },
  down: { text: 'Some systems are down', className: 'bg-red-600 text-white' },
  unknown: { text: 'Some systems are not reporting', className: 'bg-slate-600 text-white' },
};

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function Bars({ item }: { item: PublicItem }) {
  return (
    <ol className="flex h-7 items-stretch gap-px" aria-label={`${item.name}: uptime per day over the last ${item.days.length} days`} data-testid="uptime-bars">
      {item.days.map((d) => {
        const text = `${d.day}: ${d.uptime === null ? 'no data' : `${formatUptimeShare(d.uptime)} up`}`;
        return <li key={d.day} title={text} aria-label={text} className={cx('min-w-0 flex-1 rounded-sm', barTone[uptimeTone(d.uptime)])} />;
      })}
    </ol>
  );
}

function Item({ item }: { item: PublicItem }) {
  return (
    <li className="space-y-2 py-3" data-testid="status-item">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="font-medium">{item.name}</span>
        {item.address && <span className="font-mono text-xs text-slate-500 dark:text-slate-400">{item.address}</span>}
        <span className={cx('ml-auto inline-flex items-center gap-1.5 text-sm font-medium', stateTone[item.state])} data-testid="status-state">
          <span aria-hidden className={cx('h-2 w-2 rounded-full', stateDot[item.state])} />
          {publicStateLabels[item.state]}
        </span>
      </div>
      <Bars item={item} />
      <div className="flex justify-between text-xs text-slate-500 dark:text-slate-400">
        <span>{item.days.length} days ago</span>
        <span>{item.uptime90d === null ? 'No data' : `${formatUptimeShare(item.uptime90d)} uptime`}</span>
        <span>Today</span>
      </div>
    </li>
  );
}

function Incident({ incident }: { incident: PublicIncident }) {
  const open = !incident.resolvedAt;
  return (
    <article className={cx('rounded-lg border p-4', open ? 'border-orange-300 bg-orange-50 dark:border-orange-800 dark:bg-orange-950' : 'border-slate-200 dark:border-slate-700')} data-testid="incident">
      <header className="flex flex-wrap items-baseline gap-x-3">
        <h3 className="text-base font-semibold">{incident.title}</h3>
        <span className={cx('text-sm font-medium', open ? 'text-orange-700 dark:text-orange-300' : 'text-green-700 dark:text-green-400')}>{open ? 'Ongoing' : 'Resolved'}</span>
        <span className="ml-auto text-xs text-slate-600 dark:text-slate-400">
          {when(incident.startedAt)}
          {incident.resolvedAt ? ` – ${when(incident.resolvedAt)}` : ''}
        </span>
      </header>
      <ol className="mt-3 space-y-3">
        {[...incident.posts].reverse().map((p, i) => (
          <li key={`${p.at}-${i}`} className="border-l-2 border-slate-300 pl-3 dark:border-slate-600">
            <div className="text-xs text-slate-600 dark:text-slate-400">
              {p.resolves ? 'Resolved · ' : ''}
              {when(p.at)}
            </div>
            <PublicMarkdown className="text-sm break-words">{p.body}</PublicMarkdown>
          </li>
        ))}
      </ol>
    </article>
  );
}

/** /status/<slug>: the read-only public status page (issue 16 §3), for anyone, signed in or not. */
export function PublicStatusPage() {
  const { slug } = route.useParams();
  const query = useQuery({ ...publicStatusQueryOptions(slug), refetchInterval: REFRESH_MS });
  const page = query.data?.result;
  useEffect(() => {
    document.title = page ? `${page.title} · Status` : 'Status';
  }, [page]);

  if (query.isPending) {
    return (
      <main className="mx-auto max-w-3xl p-6" aria-busy="true">
        <div className="h-8 w-1/2 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
        <div className="mt-6 h-14 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
      </main>
    );
  }
  if (query.isError && !page) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <main className="mx-auto max-w-3xl p-6 text-center">
        <h1 className="text-2xl font-semibold">{missing ? 'No status page here' : 'The status page could not be loaded'}</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">{missing ? 'Check the address.' : 'Try again in a moment.'}</p>
      </main>
    );
  }
  const p = page!;
  const open = p.incidents.filter((i) => !i.resolvedAt);
  const past = p.incidents.filter((i) => i.resolvedAt);
  return (
    <main className="mx-auto max-w-3xl space-y-6 p-4 sm:p-6">
      <header>
        <h1 className="text-2xl font-semibold">{p.title}</h1>
        {p.description && <p className="mt-1 text-slate-600 dark:text-slate-400">{p.description}</p>}
      </header>
      <div role="status" className={cx('rounded-lg px-4 py-3 text-lg font-semibold', overallText[p.overall].className)} data-testid="overall">
        {overallText[p.overall].text}
      </div>
      {open.length > 0 && (
        <section aria-label="Ongoing incidents" className="space-y-3">
          {open.map((i) => (
            <Incident key={i.startedAt} incident={i} />
          ))}
        </section>
      )}
      {p.groups.map((g, gi) => (
        <section key={gi} aria-label={g.name || 'Services'} className="rounded-lg border border-slate-200 px-4 dark:border-slate-700">
          {g.name && <h2 className="border-b border-slate-200 py-3 text-lg font-semibold dark:border-slate-700">{g.name}</h2>}
          {g.items.length ? (
            <ul className="divide-y divide-slate-200 dark:divide-slate-700">
              {g.items.map((item, ii) => (
                <Item key={ii} item={item} />
              ))}
            </ul>
          ) : (
            <p className="py-3 text-sm text-slate-500 dark:text-slate-400">Nothing to show.</p>
          )}
        </section>
      ))}
      <section aria-label="Past incidents" className="space-y-3">
        <h2 className="text-lg font-semibold">Past incidents</h2>
        {past.length ? past.map((i) => <Incident key={i.startedAt} incident={i} />) : <p className="text-sm text-slate-500 dark:text-slate-400">No incidents in the last 90 days.</p>}
      </section>
      <footer className="text-xs text-slate-500 dark:text-slate-400">Updated {when(p.generatedAt)} · refreshes every minute</footer>
    </main>
  );
}
