import { useCallback } from 'react';
import type { ThresholdCard, ThresholdValue } from '../../lib/dashboard-view';
import { useCommandRunner } from '../../app/command-host/run-command';

/** The card controls run the dashboard commands, so a choice is the same act as `dashboard.set-threshold cpu 90` (the refresh button is a RefreshButton). */
export function useCardCommands() {
  const runner = useCommandRunner();
  const setThreshold = useCallback((card: ThresholdCard, threshold: ThresholdValue) => void runner.run('dashboard.set-threshold', { card, threshold }), [runner]);
  return { setThreshold, runner };
}
