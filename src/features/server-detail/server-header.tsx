import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { Server } from '../../../server/contract/servers';
import { serverUpStatusQueryOptions } from '../../api/servers';
import { addressAndOs, ServerPicker } from '../../components/servers/server-picker';
import { CopyButton } from '../../components/ui/copy-button';
import { cx } from '../../components/ui/cx';
import { Switch } from '../../components/ui/switch';
import { serverStateDisplay } from '../../lib/format';
import { useCommandRunner } from '../../app/command-host/run-command';
import { liveRefetchMs } from './live';

const badgeTone = {
  green: 'bg-green-100 text-green-800 ring-green-600/30 dark:bg-green-950 dark:text-green-300 dark:ring-green-400/30',
  red: 'bg-red-100 text-red-800 ring-red-600/30 dark:bg-red-950 dark:text-red-300 dark:ring-red-400/30',
  orange: 'bg-orange-100 text-orange-800 ring-orange-600/30 dark:bg-orange-950 dark:text-orange-300 dark:ring-orange-400/30',
  none: 'bg-slate-100 text-slate-700 ring-slate-500/30 dark:bg-slate-800 dark:text-slate-300',
};

/**
 * SPEC §2 header: hostname, IP address, OS icon, Running/Down badge (only once the agent is
 * configured), the Maintenance toggle and the Switch Server selector.
 */
export function ServerHeader({ server, scrapeIntervalSeconds }: { server: Server; scrapeIntervalSeconds?: number }) {
  const runner = useCommandRunner();
  const { run } = runner;
  const live = server.isAgentConfigured && server.status !== 'suspended';
  const upstatus = useQuery({ ...serverUpStatusQueryOptions(server._id), enabled: live, refetchInterval: liveRefetchMs(scrapeIntervalSeconds) });
  const state = upstatus.data?.result.state ?? server.state;
  const { label, tone } = serverStateDisplay(state);
  const canToggle = runner.check('server.toggle-maintenance');
  const [pending, setPending] = useState<boolean | null>(null);
  const maintenance = pending ?? server.suppressAlarm === 'yes';

  // Not disabled while the change is on its way: a disabled switch drops the keyboard focus.
  // A second flip in the meantime waits for the first and then asks for its own state.
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const toggle = (on: boolean) => {
    setPending(on);
    const next = chain.current.then(() => run('server.toggle-maintenance', { server: server._id, mode: on ? 'on' : 'off' }));
    chain.current = next;
    void next.then(() => {
      if (chain.current === next) setPending(null);
    });
  };

  const overLimits = state === 'over_limits' ? (upstatus.data?.result.lastError ?? server.lastError) : null;

  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-3">
      <div className="flex min-w-0 items-center gap-3">
        <OsIcon os={server.operating_system} />
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-semibold">{server.hostname}</h1>
          <p className="flex items-center gap-1 text-sm text-slate-600 dark:text-slate-400">
            <span className="sr-only">IP Address </span>
            <span className="font-mono" data-testid="server-ip">
              {server.ipaddress}
            </span>
            <CopyButton value={server.ipaddress} label={`IP Address ${server.ipaddress}`} />
          </p>
        </div>
        {server.isAgentConfigured && (
          <span role="status" aria-label={`State: ${label}`} className={cx('inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-sm font-medium ring-1 ring-inset', badgeTone[tone])}>
            <span aria-hidden className={cx('h-2 w-2 rounded-full', tone === 'green' ? 'bg-green-500' : tone === 'red' ? 'bg-red-500' : tone === 'orange' ? 'bg-orange-500' : 'bg-slate-400')} />
            {label}
          </span>
        )}
      </div>
      <div className="ml-auto flex flex-wrap items-center gap-4">
        <span title={canToggle === true ? 'Maintenance suppresses this server’s alarms' : canToggle}>
          <Switch isSelected={maintenance} onChange={toggle} isDisabled={canToggle !== true}>
            Maintenance
          </Switch>
        </span>
        <ServerPicker
          aria-label="Switch Server"
          placeholder="Switch Server"
          className="w-60"
          description={(s) => `${addressAndOs(s)}${s._id === server._id ? ' · shown now' : ''}`}
          emptyText="No active, configured servers match"
          onSelect={(s) => {
            if (s._id !== server._id) void run('server.switch', { server: s._id });
          }}
        />
      </div>
      {server.isAgentConfigured && state === 'over_limits' && (
        <p role="alert" className="basis-full rounded-md border border-orange-300 bg-orange-50 px-3 py-2 text-sm text-orange-900 dark:border-orange-700 dark:bg-orange-950 dark:text-orange-100">
          <strong>This target is over its limits:</strong> nothing of its scrapes is used, so its figures and charts stop at the last good scrape. {overLimits}
        </p>
      )}
    </header>
  );
}

/** The operating system as a small picture with its name for assistive technology. */
export function OsIcon({ os, className }: { os: 'linux' | 'windows'; className?: string }) {
  if (os === 'windows') {
    return (
      <svg role="img" aria-label="Windows" viewBox="0 0 24 24" className={cx('h-9 w-9 shrink-0 fill-sky-600 dark:fill-sky-400', className)}>
        <title>Windows</title>
        <path d="M2 4.5l8-1.1v7.7H2zM11 3.3L22 1.8v9.3H11zM2 12h8v7.7l-8-1.1zM11 12h11v9.3l-11-1.5z" />
      </svg>
    );
  }
  return (
    <svg role="img" aria-label="Linux" viewBox="0 0 24 24" className={cx('h-9 w-9 shrink-0', className)}>
      <title>Linux</title>
      {/* A penguin: body, belly, eyes, beak and feet. */}
      <ellipse cx="12" cy="13" rx="7" ry="9" className="fill-slate-800 dark:fill-slate-200" />
      <ellipse cx="12" cy="15" rx="4.6" ry="6" className="fill-white dark:fill-slate-700" />
      <circle cx="10" cy="8" r="1.2" className="fill-white dark:fill-slate-800" />
      <circle cx="14" cy="8" r="1.2" className="fill-white dark:fill-slate-800" />
      <path d="M10.4 10.2h3.2L12 12z" className="fill-amber-400" />
      <ellipse cx="8.5" cy="21.6" rx="2.6" ry="1.1" className="fill-amber-400" />
      <ellipse cx="15.5" cy="21.6" rx="2.6" ry="1.1" className="fill-amber-400" />
    </svg>
  );
}
