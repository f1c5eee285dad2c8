import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { Server } from '../../../server/contract/servers';
import { cx } from '../../components/ui/cx';
import { AgentWizard } from './agent-wizard';

const linkClass = (primary: boolean) =>
  cx(
    'inline-flex h-9 items-center rounded-md px-3.5 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-blue-500 focus-visible:ring-offset-1 dark:focus-visible:ring-offset-slate-900',
    primary ? 'bg-blue-600 text-white hover:bg-blue-700' : 'border border-slate-300 bg-white hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700',
  );

/**
 * SPEC §2: a server whose agent is not configured (and is not suspended) shows the set-up view:
 * an 'Agent not configured' card with 'Configure Now' (`?configure=1`), which opens the wizard.
 * The wizard stays on screen after Finish (the server is configured by then) until the reload.
 */
export function AgentSetup({ server, configuring }: { server: Server; configuring: boolean }) {
  // Decided once: Finish makes the server configured while the wizard still shows its result.
  const [configuredAtOpen] = useState(server.isAgentConfigured);
  if (!configuring) {
    return (
      <section
        aria-labelledby="agent-not-configured"
        className="flex flex-col items-center gap-3 rounded-lg border border-amber-300 bg-white p-10 text-center dark:border-amber-700 dark:bg-slate-900"
      >
        <span aria-hidden className="flex h-12 w-12 items-center justify-center rounded-full bg-amber-100 text-2xl text-amber-700 dark:bg-amber-950 dark:text-amber-300">
          !
        </span>
        <h2 id="agent-not-configured" className="text-xl font-semibold">
          Agent not configured
        </h2>
        <p className="max-w-prose text-sm text-slate-600 dark:text-slate-400">
          Install the monitoring agent on {server.hostname} to see its utilization, saturation, charts and services. The agent listens on port {server.agentPort}.
        </p>
        <Link to="/servers/show/$id" params={{ id: server._id }} search={(prev) => ({ ...prev, configure: 1 })} className={linkClass(true)}>
          Configure Now
        </Link>
      </section>
    );
  }
  return (
    <section aria-labelledby="configure-agent" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 dark:border-slate-700 dark:bg-slate-900">
      <div className="flex flex-wrap items-center gap-3">
        <Link to="/servers/show/$id" params={{ id: server._id }} search={(prev) => ({ ...prev, configure: undefined })} className={linkClass(false)}>
          ← Back
        </Link>
        <h2 id="configure-agent" className="text-xl font-semibold">
          Configure Agent
        </h2>
      </div>
      {configuredAtOpen ? (
        <p className="text-sm">
          The agent of {server.hostname} is already configured.{' '}
          <Link to="/servers/show/$id" params={{ id: server._id }} search={(prev) => ({ ...prev, configure: undefined })} className="text-blue-700 underline dark:text-blue-300">
            Show its dashboards
          </Link>
        </p>
      ) : (
        <AgentWizard server={server} />
      )}
    </section>
  );
}
