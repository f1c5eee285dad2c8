import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ApiError } from '../../api/client';
import { monitoringConfigQueryOptions, serverQueryOptions } from '../../api/servers';
import { Skeleton } from '../../components/ui/skeleton';
import { resolveServerView } from '../../lib/server-view';
import { AgentSetup } from './agent-setup';
import { ServerDashboards } from './server-dashboards';
import { ServerHeader } from './server-header';
import { Icon } from '../../components/ui/icons';
import { LoadError } from '../../components/ui/load-error';

const route = getRouteApi('/app/servers/show/$id');

/**
 * SPEC §2 Server detail: the header, then one of three bodies — 'Server Suspended' (no
 * dashboards), the agent set-up view (agent not configured), or the gauges and the tabs.
 * The whole view state (tab, range, zone, refresh, services filters) is in the URL.
 */
export function ServerDetailPage() {
  const { id } = route.useParams();
  const search = route.useSearch();
  const serverQuery = useQuery(serverQueryOptions(id));
  // Needed before the first chart: it decides between built-in charts and Grafana frames.
  const configQuery = useQuery(monitoringConfigQueryOptions());

  if (serverQuery.isPending) return <DetailSkeleton />;
  if (serverQuery.isError && !serverQuery.data) {
    const notFound = serverQuery.error instanceof ApiError && serverQuery.error.status === 404;
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold">{notFound ? 'Server not found' : 'Server'}</h1>
        <LoadError
          title={notFound ? 'This server does not exist or was deleted.' : 'Could not load the server.'}
          detail={notFound ? undefined : serverQuery.error.message}
          onRetry={notFound ? undefined : () => void serverQuery.refetch()}
          retrying={serverQuery.isFetching}
        />
        <Link to="/servers" className="text-sm text-blue-700 underline outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:text-blue-300">
          Back to the Servers List
        </Link>
      </div>
    );
  }

  const server = serverQuery.data.result;
  const view = resolveServerView(search, server.operating_system);
  const suspended = server.status === 'suspended';

  return (
    <div className="space-y-5">
      <ServerHeader server={server} scrapeIntervalSeconds={configQuery.data?.result.scrapeIntervalSeconds} />
      {suspended ? (
        <div role="alert" className="flex flex-col items-center gap-2 rounded-lg border border-red-200 bg-white p-10 text-center dark:border-red-900 dark:bg-slate-900">
          <span aria-hidden className="flex h-12 w-12 items-center justify-center rounded-full bg-red-100 text-2xl text-red-600 dark:bg-red-950 dark:text-red-400">
            <Icon name="close" />
          </span>
          <h2 className="text-xl font-semibold">Server Suspended</h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">This server has been suspended. Please contact your administrator.</p>
        </div>
      ) : !server.isAgentConfigured || search.configure === 1 ? (
        <AgentSetup server={server} configuring={search.configure === 1} />
      ) : configQuery.isError && !configQuery.data ? (
        <LoadError title="Could not load the monitoring settings." detail={configQuery.error.message} onRetry={() => void configQuery.refetch()} retrying={configQuery.isFetching} />
      ) : (
        // Keyed by server: a switch starts from clean chart state instead of the last server's lines.
        <ServerDashboards key={server._id} server={server} view={view} config={configQuery.data?.result} />
      )}
    </div>
  );
}

function DetailSkeleton() {
  return (
    <div className="space-y-5" aria-busy="true" aria-label="Loading server">
      <div className="flex flex-wrap items-center gap-3">
        <Skeleton className="h-8 w-56" />
        <Skeleton className="h-6 w-28" />
        <Skeleton className="ml-auto h-9 w-64" />
      </div>
      <div className="grid grid-cols-2 gap-4 md:grid-cols-5">
        {Array.from({ length: 5 }, (_, i) => (
          <Skeleton key={i} className="h-36" />
        ))}
      </div>
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-72 w-full" />
    </div>
  );
}
