import { z } from 'zod';
import { queryKeys } from '../../src/api/query-keys';
import { deleteStatusPage as deleteCall } from '../../src/api/status-pages';
import { defineCommand } from '../define-command';
import { pageArg, publicPath, resolveStatusPage } from './status-fields';

export const deleteStatusPage = defineCommand({
  id: 'status.delete',
  title: 'Delete status page',
  category: 'Status Pages',
  description: 'Take a status page down with its incident posts; its address answers "not found" from then on.',
  input: z.object({ page: z.string().trim().min(1, 'page is required'), label: z.string().optional() }),
  args: [pageArg],
  permission: 'status.write',
  prepare: async (input, ctx) => {
    const found = await resolveStatusPage(ctx.api, input.page);
    return { page: found._id, label: found.slug };
  },
  destructive: {
    title: 'Delete status page',
    message: ({ page, label }) => `Delete the status page “${label ?? page}” and its incident posts? Its public address stops working. This cannot be undone.`,
    confirmLabel: 'Delete',
  },
  async run({ page }, ctx) {
    const found = await resolveStatusPage(ctx.api, page);
    await deleteCall(ctx.api, found._id);
    await ctx.invalidate(queryKeys.statusPages.all);
    if (ctx.location?.().pathname.includes(found._id)) ctx.navigate('/status-pages');
    return { message: `Deleted status page **${found.title}** (\`${publicPath(found.slug)}\`).`, data: found };
  },
});
