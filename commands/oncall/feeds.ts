import { z } from 'zod';
import { createMyFeed, createScheduleFeed, revokeMyFeed, revokeScheduleFeed } from '../../src/api/oncall';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { resolveSchedule, scheduleArg } from './schedule-fields';

const subscribe = (url: string) => `Subscribe to it from any calendar app (shown once; \`--revoke\` ends it, running this again replaces it):\n\n\`${url}\``;

export const scheduleFeedCommand = defineCommand({
  id: 'schedule.feed',
  title: 'Calendar feed of on-call schedule',
  category: 'On call',
  description: 'Make a secret iCalendar feed URL of a schedule’s final schedule, for calendar apps; again to replace it (the old URL stops working), or --revoke to end it. `schedule.feed Platform --revoke`',
  input: z.object({ schedule: z.string({ error: 'schedule is required' }).trim().min(1, 'schedule is required'), revoke: z.boolean().optional() }),
  args: [scheduleArg, { name: 'revoke', label: 'Revoke the feed', kind: 'boolean', optional: true }],
  permission: 'oncall.write',
  prepare: (input, ctx) => resolveSchedule(ctx.api, input.schedule),
  async run(input, ctx, schedule) {
    // The schedule says whether it has a feed: fetched again once the change is made.
    if (input.revoke) {
      const { result } = await revokeScheduleFeed(ctx.api, schedule._id);
      await ctx.invalidate(queryKeys.oncall.all);
      return { message: result.revoked ? `Revoked the calendar feed of **${schedule.name}**: its URL finds nothing now.` : `**${schedule.name}** has no calendar feed.` };
    }
    const { result } = await createScheduleFeed(ctx.api, schedule._id);
    await ctx.invalidate(queryKeys.oncall.all);
    return { message: `Calendar feed of **${schedule.name}**. ${subscribe(result.url)}`, data: { url: result.url } };
  },
});

export const myFeedCommand = defineCommand({
  id: 'oncall.my-feed',
  title: 'My on-call calendar feed',
  category: 'On call',
  description: 'Make a secret iCalendar feed URL of your own on-call shifts in every schedule; again to replace it, or --revoke to end it.',
  input: z.object({ revoke: z.boolean().optional() }),
  args: [{ name: 'revoke', label: 'Revoke the feed', kind: 'boolean', optional: true }],
  permission: 'read',
  async run(input, ctx) {
    if (input.revoke) {
      const { result } = await revokeMyFeed(ctx.api);
      return { message: result.revoked ? 'Revoked your calendar feed: its URL finds nothing now.' : 'You have no calendar feed.' };
    }
    const { result } = await createMyFeed(ctx.api);
    return { message: `Your on-call calendar. ${subscribe(result.url)}`, data: { url: result.url } };
  },
});
