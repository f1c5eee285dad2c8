import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { dashboardCards, dashboardCardTitles } from '../../src/lib/dashboard-view';
import { defineCommand } from '../define-command';

/** SPEC §2 Dashboard: each card's round refresh button, or every card at once. */
export const refreshDashboard = defineCommand({
  id: 'dashboard.refresh',
  title: 'Refresh dashboard',
  category: 'Dashboard',
  description: 'Fetch the latest figures of every dashboard card, or of one card.',
  input: z.object({ card: z.enum(dashboardCards).optional() }).strict(),
  args: [
    {
      name: 'card',
      label: 'Card',
      kind: 'enum',
      positional: true,
      optional: true,
      options: dashboardCards.map((c) => ({ value: c, label: dashboardCardTitles[c] })),
    },
  ],
  permission: 'read',
  history: false,
  async run({ card }, ctx) {
    // Instance Down is a list of firing alerts: its data lives under the alerts keys.
    const alertLists = [...queryKeys.alerts.all, 'list'] as const;
    if (!card) await Promise.all([ctx.invalidate(queryKeys.analytics.all), ctx.invalidate(alertLists)]);
    else if (card === 'instance-down') await ctx.invalidate(alertLists);
    else await ctx.invalidate(queryKeys.analytics.card(card));
    return { message: card ? `Refreshed **${dashboardCardTitles[card]}**.` : 'Refreshed the dashboard.' };
  },
});
