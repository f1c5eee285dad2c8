import { z } from 'zod';
import { dashboardCardTitles, dashboardHref, DEFAULT_DASHBOARD_THRESHOLD, openDashboard, thresholdCards, thresholdOptions, thresholdValues } from '../../src/lib/dashboard-view';
import { defineCommand } from '../define-command';

/**
 * SPEC §2/§9: the high-usage cards' "above 90/80/70/60" choice. The choice lives in the URL
 * (`/?cpu=80`), so it survives a reload and a link; from another screen this opens the dashboard.
 */
export const setThreshold = defineCommand({
  id: 'dashboard.set-threshold',
  title: 'Set dashboard usage threshold',
  category: 'Dashboard',
  description: 'Show the servers above 90, 80, 70 or 60 percent on the High CPU, Memory or Disk Usage card.',
  input: z.object({ card: z.enum(thresholdCards), threshold: z.enum(thresholdValues) }).strict(),
  args: [
    { name: 'card', label: 'Card', kind: 'enum', positional: true, options: thresholdCards.map((c) => ({ value: c, label: dashboardCardTitles[c] })) },
    { name: 'threshold', label: 'Threshold', kind: 'enum', positional: true, options: thresholdOptions },
  ],
  permission: 'read',
  history: false,
  run({ card, threshold }, ctx) {
    const view = openDashboard(ctx.location?.()) ?? {};
    const value = Number(threshold);
    ctx.navigate(dashboardHref({ ...view, [card]: value === DEFAULT_DASHBOARD_THRESHOLD ? undefined : value }));
    return { message: `**${dashboardCardTitles[card]}** shows servers above ${threshold} %.` };
  },
});
