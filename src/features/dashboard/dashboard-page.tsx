import { MonitoringBanner } from '../../components/monitoring/monitoring-banner';
import { InstanceDownCard } from './instance-down-card';
import { OnCallGapNotice } from '../oncall/gap-notice';
import { ReachNotice } from './reach-notice';
import { AlertsSummaryCard, InstanceSummaryCard } from './summary-cards';
import { DownServersCard, HighCpuCard, HighDiskCard, HighMemoryCard, ServicesDownCard } from './usage-cards';

/**
 * SPEC §2 Dashboard: "what is wrong right now" on a 24-column grid. Each card loads, fails and
 * refreshes on its own, so one slow figure never holds up the others.
 */
export function DashboardPage() {
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold">Dashboard</h1>
      <MonitoringBanner />
      <ReachNotice />
      <OnCallGapNotice />
      <div className="grid grid-cols-1 gap-4 md:grid-cols-24">
        <InstanceSummaryCard />
        <AlertsSummaryCard />
        <HighCpuCard />
        <HighMemoryCard />
        <HighDiskCard />
        <ServicesDownCard />
        <DownServersCard />
        <InstanceDownCard />
      </div>
    </div>
  );
}
