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
  input: z.object({ page: z.string().trim().min(1, 'page is required') }),
  args: [pageArg],
  permission: 'status.write',
  // Found before asking, so the question names it; the run deletes the page found.
  prepare: (input, ctx) => resolveStatusPage(ctx.api, input.page),
  destructive: {
    title: 'Delete status page',
    message: (_input, found) => `Delete the status page “${found.slug}” and its incident posts? Its public address stops working. This cannot be undone.`,
    confirmLabel: 'Delete',
  },
  async run(_input, ctx, found) {
    await deleteCall(ctx.api, found._id);
    await ctx.invalidate(queryKeys.statusPages.all);
    if (ctx.location?.().pathname.includes(found._id)) ctx.navigate('/status-pages');
    return { message: `Deleted status page **${found.title}** (\`${publicPath(found.slug)}\`).`, data: found };
  },
});
