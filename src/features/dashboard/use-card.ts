import { useCallback } from 'react';
import type { DashboardCard, ThresholdCard, ThresholdValue } from '../../lib/dashboard-view';
import { useCommandRunner } from '../../lib/run-command';

/** The card buttons run the dashboard commands, so a click is the same act as `dashboard.refresh cpu`. */
export function useCardCommands() {
  const runner = useCommandRunner();
  const refresh = useCallback((card: DashboardCard) => void runner.run('dashboard.refresh', { card }), [runner]);
  const setThreshold = useCallback((card: ThresholdCard, threshold: ThresholdValue) => void runner.run('dashboard.set-threshold', { card, threshold }), [runner]);
  return { refresh, setThreshold, runner };
}
