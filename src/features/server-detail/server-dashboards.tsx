import type { MonitoringConfig, Server } from '../../../server/contract/servers';
import { Tabs } from '../../components/ui/tabs';
import { metricTabs, serverTabLabels, tabsFor, type ServerTab, type ServerView } from '../../lib/server-view';
import { MetricTab } from './metric-tab';
import { ServerGauges } from './server-gauges';
import { ServicesTab } from './services-tab';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useServerTabSlots } from './tab-slots';

/** The dashboards of a configured, not suspended server: the gauges, then the tabs of SPEC §2. */
export function ServerDashboards({ server, view, config }: { server: Server; view: ServerView; config: MonitoringConfig | undefined }) {
  const { run } = useCommandRunner();
  const slots = useServerTabSlots();
  const tabs = tabsFor(server.operating_system).map((id) => ({ id, label: serverTabLabels[id] }));
  return (
    <>
      <ServerGauges server={server} scrapeIntervalSeconds={config?.scrapeIntervalSeconds} />
      <Tabs<ServerTab> aria-label="Server detail" items={tabs} selectedKey={view.tab} onSelectionChange={(tab) => void run('server.tab', { tab })}>
        {(tab) =>
          metricTabs.includes(tab) ? (
            <MetricTab server={server} tab={tab} view={view} config={config} />
          ) : tab === 'services' ? (
            <ServicesTab server={server} view={view} />
          ) : tab === 'notifications' && slots.notifications ? (
            <slots.notifications server={server} view={view} />
          ) : tab === 'alerts-config' && slots.alertsConfiguration ? (
            <slots.alertsConfiguration server={server} view={view} />
          ) : (
            <ComingWithAlerting tab={tab} />
          )
        }
      </Tabs>
    </>
  );
}

/** The Notifications and Alerts Configuration tabs arrive with alerting (a later issue). */
function ComingWithAlerting({ tab }: { tab: ServerTab }) {
  const what = tab === 'notifications' ? 'this server’s alerts, with date-range, status and hostname filters' : 'the alert rules of this server: thresholds, grace periods, severities and notification groups';
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 p-10 text-center dark:border-slate-600">
      <h2 className="text-lg font-semibold">{serverTabLabels[tab]}</h2>
      <p className="max-w-prose text-sm text-slate-600 dark:text-slate-400">Coming with alerting: this tab will list {what}.</p>
    </div>
  );
}
